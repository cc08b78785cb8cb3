"""Pipeline commands: worker, topics, produce, tail, demo, schemas."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from confluent_kafka import KafkaException

from groundwire.streams import kafka
from groundwire.streams.cli.common import echo_error, load_settings_or_exit, setup_logging
from groundwire.streams.publish import publish_claims
from groundwire.streams.settings import Settings

topics_app = typer.Typer(help="Create and inspect the contract's topics.", no_args_is_help=True)
schemas_app = typer.Typer(help="The wire contract's JSON Schemas.", no_args_is_help=True)


def worker(
    stages: Annotated[
        str,
        typer.Option(
            help="Comma-separated stages to run, one process each; name a stage twice "
            "(screen,route,route) for two replicas of it"
        ),
    ] = "screen,route,memory",
    inline: Annotated[
        bool, typer.Option(help="Run all stages in this process (default: one process each)")
    ] = False,
    log_level: Annotated[str, typer.Option(help="Python log level")] = "info",
) -> None:
    """Run a worker: consume claims, screen, route, keep the memory view; until
    SIGTERM/SIGINT."""
    from groundwire.streams.stages import ALL_STAGES
    from groundwire.streams.worker import run_worker

    setup_logging(log_level)
    settings = load_settings_or_exit()
    chosen = [s.strip() for s in stages.split(",") if s.strip()]
    unknown = sorted(set(chosen) - set(ALL_STAGES))
    if unknown or not chosen:
        names = ", ".join(ALL_STAGES)
        typer.echo(f"error: unknown stage(s) {unknown}; choose from {names}", err=True)
        raise typer.Exit(2)
    if inline or len(chosen) == 1:
        asyncio.run(run_worker(settings, sorted(set(chosen))))
        return
    from groundwire.streams.supervisor import run_supervised

    raise typer.Exit(run_supervised(chosen, settings.metrics_port, log_level))


@topics_app.command("create")
def topics_create() -> None:
    """Create every topic of the contract with explicit partition counts (idempotent)."""
    from groundwire.streams.admin import create_topics

    settings = load_settings_or_exit()
    failed = False
    for outcome in create_topics(settings):
        typer.echo(
            f"{outcome.status:8} {outcome.name} partitions={outcome.partitions} {outcome.detail}"
        )
        failed |= outcome.status == "failed"
    if failed:
        raise typer.Exit(1)


@topics_app.command("list")
def topics_list() -> None:
    """Print the contract's topic names for the configured prefix."""
    for suffix, name in load_settings_or_exit().topics.all().items():
        typer.echo(f"{suffix:16} {name}")


def _resolve_topic(settings: Settings, topic: str) -> str:
    names = settings.topics.all()
    return names.get(topic, topic)


def produce(
    file: Annotated[Path, typer.Argument(help="JSONL file of claims ('-' for stdin)")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar")] = False,
    key_id: Annotated[
        str | None,
        typer.Option("--key-id", help="Sign each claim as this producer key (needs --key-file)"),
    ] = None,
    key_file: Annotated[
        Path | None,
        typer.Option("--key-file", help="File holding the key's HMAC secret (trimmed)"),
    ] = None,
) -> None:
    """Publish claims, one per line, keyed by tenant_id. Lines are sent as-is: a malformed
    line still goes in, and the pipeline routes it to the dlq with a reason. With --key-id
    and --key-file each claim is signed first (docs/spec.md §Producer authentication)."""
    from tqdm import tqdm

    from groundwire.streams.publish import Signer, read_secret

    signer = None
    if (key_id is None) != (key_file is None):
        typer.echo("error: --key-id and --key-file go together", err=True)
        raise typer.Exit(2)
    if key_id is not None and key_file is not None:
        try:
            signer = Signer(key_id, read_secret(str(key_file)))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            # the class or OS reason only: a decode error would quote the file's bytes
            why = exc.strerror if isinstance(exc, OSError) else type(exc).__name__
            typer.echo(f"error: cannot read the key file {key_file}: {why}", err=True)
            raise typer.Exit(2) from None
    settings = load_settings_or_exit()
    if str(file) == "-":
        lines = sys.stdin.buffer.read().splitlines()
    else:
        try:
            lines = file.read_bytes().splitlines()
        except OSError as exc:
            typer.echo(f"error: cannot read {file}: {exc.strerror}", err=True)
            raise typer.Exit(2) from exc
    lines = [line for line in lines if line.strip()]
    with tqdm(total=len(lines), unit="claim", file=sys.stderr, disable=quiet) as bar:
        sent, failures = publish_claims(settings, lines, on_sent=bar.update, signer=signer)
    typer.echo(f"published {sent} record(s) to {settings.topics.claims}", err=True)
    if failures:
        typer.echo(f"error: {len(failures)} record(s) not acknowledged: {failures[0]}", err=True)
        raise typer.Exit(1)


def tail(
    topic: Annotated[
        str,
        typer.Argument(
            help="Topic suffix (approved, review, blocked, dlq, audit, ...) or full name"
        ),
    ],
    from_beginning: Annotated[
        bool, typer.Option("--from-beginning", help="Start at the earliest offset")
    ] = False,
    max_records: Annotated[
        int, typer.Option("--max", help="Stop after N records (0 = no limit)")
    ] = 0,
    timeout: Annotated[
        float, typer.Option(help="Stop after this many idle seconds (0 = never)")
    ] = 0.0,
) -> None:
    """Print a topic's records as JSON lines (read_committed: only what the pipeline committed)."""
    settings = load_settings_or_exit()
    name = _resolve_topic(settings, topic)
    consumer = kafka.consumer(
        settings,
        group_id=f"groundwire-tail-{time.time_ns()}",
        enable_auto_commit=False,
        isolation_level="read_committed",
        auto_offset_reset="earliest" if from_beginning else "latest",
    )
    consumer.subscribe([name])
    seen = 0
    idle_since = time.monotonic()
    try:
        while max_records == 0 or seen < max_records:
            msg = consumer.poll(0.5)
            if msg is None or msg.error():
                if timeout and time.monotonic() - idle_since > timeout:
                    break
                continue
            idle_since = time.monotonic()
            sys.stdout.write((msg.value() or b"").decode("utf-8", errors="replace") + "\n")
            sys.stdout.flush()
            seen += 1
    except KeyboardInterrupt:
        pass
    except KafkaException as exc:
        echo_error(f"error: {exc}")
        raise typer.Exit(1) from exc
    finally:
        consumer.close()


@schemas_app.command("write")
def schemas_write() -> None:
    """Regenerate topics/schemas/*.json from the record models."""
    from groundwire.topics.schemas import write_schemas

    for path in write_schemas():
        typer.echo(f"wrote {path}")


@schemas_app.command("check")
def schemas_check() -> None:
    """Exit 1 when the checked-in schemas differ from the models."""
    from groundwire.topics.schemas import stale_schemas

    stale = stale_schemas()
    for name in stale:
        typer.echo(f"stale: {name} (run `groundwire schemas write`)", err=True)
    if stale:
        raise typer.Exit(1)
    typer.echo("schemas up to date")


def register(app: typer.Typer) -> None:
    app.command()(worker)
    app.add_typer(topics_app, name="topics")
    app.command()(produce)
    app.command()(tail)
    app.add_typer(schemas_app, name="schemas")
