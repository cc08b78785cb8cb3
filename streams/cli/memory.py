"""`groundwire scan` and `groundwire memories`: the consistency scan on demand, and the
memory view's retraction (the right to be forgotten) and inspection.

Both publish commands for the memory stage (a running worker applies them); `--wait S`
waits until it has, and exits 1 if it has not within S seconds. Exit codes: 0 done,
1 runtime failure (another scan running, Kafka or Redis unreachable, not applied in
time, no such memory), 2 usage.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Annotated

import typer

from groundwire.streams.cli.common import echo_error, load_settings_or_exit, setup_logging
from groundwire.streams.settings import Settings
from groundwire.topics.memory import MemberRef, MemoryCommand, ScanReport

memories_app = typer.Typer(
    help="The memory view: retract memories (right to be forgotten), show them.",
    no_args_is_help=True,
)

Wait = Annotated[
    float,
    typer.Option(help="Seconds to wait until the memory stage applied it (0: do not wait)"),
]


async def _wait_applied(
    settings: Settings, issued: Sequence[tuple[str, str]], wait_s: float
) -> bool:
    """True once every (tenant, command id) is in its tenant's op log."""
    from groundwire.streams.memory import view_of

    view = view_of(settings)
    deadline = time.monotonic() + wait_s
    pending = list(issued)
    try:
        while pending:
            left = []
            for tenant, command_id in pending:
                if not await view.client.hexists(view.key(tenant, "ops"), command_id):
                    left.append((tenant, command_id))
            pending = left
            if not pending:
                return True
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.25)
        return True
    finally:
        await view.aclose()


def _report_text(report: ScanReport) -> str:
    def counts(d: dict) -> str:
        shown = ", ".join(f"{getattr(k, 'value', k)} {v}" for k, v in sorted(d.items()) if v)
        return shown or "none"

    per_10k = (
        f"{report.clusters_found / report.memories_scanned * 10_000:.1f}"
        if report.memories_scanned
        else "n/a"
    )
    lines = [
        f"consistency scan {report.run_id}: {'complete' if report.complete else 'partial'}"
        + (f", resumed after {report.resumed_from!r}" if report.resumed_from else ""),
        f"  tenants scanned:      {report.tenants_scanned:,}",
        f"  memories scanned:     {report.memories_scanned:,}",
        f"  clusters found:       {report.clusters_found:,} ({per_10k} per 10k memories);"
        f" {report.clusters_known:,} judged before",
        f"  signals:              {counts(report.clusters_by_signal)}",
        f"  verdicts:             {counts(report.verdicts)}",
        f"  actions:              {counts(report.actions)}",
        f"  semantic similarity:  {report.semantic_backend}"
        + (
            " (word Jaccard of MinHash sketches; groundwire[embedding] adds sentence embeddings)"
            if report.semantic_backend == "minhash"
            else " (cosine of sentence embeddings)"
        ),
        f"  judge:                {report.judge}",
        f"  duration:             {report.duration_s:.1f} s",
    ]
    if not report.complete:
        lines.append(
            f"  stopped before tenant {report.next_tenant!r}"
            + (" (max_clusters_per_scan reached)" if report.capped else "")
            + ": the next scan resumes there"
        )
    return "\n".join(lines)


def scan(
    tenant: Annotated[
        str | None, typer.Option(help="Scan this tenant only (default: every tenant)")
    ] = None,
    run_id: Annotated[
        str | None, typer.Option(help="Name of this run (default: manual-<time>-<random>)")
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option(min=1, help="Clusters to judge (default: max_clusters_per_scan)"),
    ] = None,
    wait: Wait = 0.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing")] = False,
    log_level: Annotated[str, typer.Option(help="Python log level")] = "warning",
) -> None:
    """Run the consistency scan now: find suspect clusters, judge them, publish merges,
    supersessions and contradiction flags for the memory stage."""
    from groundwire.streams import kafka
    from groundwire.streams.memory import view_of
    from groundwire.streams.memory.scan_job import (
        ScanBusy,
        ScanJob,
        ScanOptions,
        build_encoder,
        build_judge,
    )

    setup_logging(log_level)
    settings = load_settings_or_exit()
    if not settings.guards.consistency.enabled:
        typer.echo("error: guards.consistency.enabled is false", err=True)
        raise typer.Exit(2)

    async def main() -> tuple[ScanReport, list[tuple[str, str]]]:
        view = view_of(settings)
        job = ScanJob(settings, view, build_judge(settings), build_encoder(settings))
        try:
            report = await job.run(ScanOptions(tenant=tenant, run_id=run_id, budget=budget))
            return report, job.issued
        finally:
            await job.aclose()
            await view.aclose()

    try:
        report, issued = asyncio.run(main())
    except ScanBusy as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc
    except (kafka.KafkaClientFailure, OSError, ConnectionError) as exc:
        echo_error(f"error: {type(exc).__name__}: {exc}")
        raise typer.Exit(1) from exc
    if wait and not asyncio.run(_wait_applied(settings, issued, wait)):
        typer.echo(f"error: the memory stage did not apply the scan within {wait:g} s", err=True)
        raise typer.Exit(1)
    if quiet:
        return
    typer.echo(report.model_dump_json(indent=2) if as_json else _report_text(report))


@memories_app.command("retract")
def retract(
    tenant: Annotated[str, typer.Option(help="The tenant the memories belong to")],
    memory_id: Annotated[
        list[str] | None, typer.Option("--memory-id", help="A memory to retract (repeatable)")
    ] = None,
    user: Annotated[
        str | None, typer.Option("--user", help="Retract every memory of this user")
    ] = None,
    reason: Annotated[str, typer.Option(help="Why (kept on the audit trail)")] = "",
    wait: Wait = 30.0,
) -> None:
    """Remove memories: a tombstone on `memories`, out of the view and the dedup index,
    an audit event without their content. By id, or every memory of a user."""
    from groundwire.streams.memory import view_of
    from groundwire.streams.memory.scan_job import _Publisher

    if bool(memory_id) == (user is not None):
        typer.echo("error: give --memory-id (one or more) or --user, not both", err=True)
        raise typer.Exit(2)
    settings = load_settings_or_exit()

    async def members() -> list[MemberRef]:
        view = view_of(settings)
        try:
            out = []
            for mid in memory_id or []:
                found = await view.get(tenant, mid)
                if found is None:
                    raise LookupError(mid)
                out.append(MemberRef(memory_id=mid, version=found.version))
            return out
        finally:
            await view.aclose()

    try:
        refs = asyncio.run(members())
        command = MemoryCommand(
            command_id=f"retract-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}-{secrets.token_hex(6)}",
            kind="retract",
            tenant_id=tenant,
            members=refs,
            user_id=user,
            reason=reason[:1000],
            issued_at=datetime.now(UTC),
            issued_by="cli",
        )
    except LookupError as exc:
        typer.echo(f"error: tenant {tenant!r} has no memory {exc.args[0]!r}", err=True)
        raise typer.Exit(1) from exc
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    try:
        _Publisher(settings).send([command])
    except Exception as exc:
        echo_error(f"error: {type(exc).__name__}: {exc}")
        raise typer.Exit(1) from exc
    typer.echo(f"retraction {command.command_id} published")
    if wait:
        if not asyncio.run(_wait_applied(settings, [(tenant, command.command_id)], wait)):
            typer.echo(f"error: not applied within {wait:g} s (is a worker running?)", err=True)
            raise typer.Exit(1)
        typer.echo("applied")


@memories_app.command("show")
def show(
    tenant: Annotated[str, typer.Option(help="The tenant")],
    memory_id: Annotated[str | None, typer.Option("--memory-id", help="One memory")] = None,
    user: Annotated[str | None, typer.Option("--user", help="Every memory of this user")] = None,
) -> None:
    """Print memories of the view as JSON lines (current and history)."""
    from groundwire.streams.memory import view_of

    settings = load_settings_or_exit()

    async def main() -> list[str]:
        view = view_of(settings)
        try:
            if memory_id is not None:
                found = await view.get(tenant, memory_id)
                records = [found] if found is not None else []
            elif user is not None:
                records = await view.user_memories(tenant, user)
            else:
                records = await view.active_memories(tenant)
            return [r.model_dump_json() for r in sorted(records, key=lambda r: r.memory_id)]
        finally:
            await view.aclose()

    for line in asyncio.run(main()):
        typer.echo(line)


def register(app: typer.Typer) -> None:
    app.command()(scan)
    app.add_typer(memories_app, name="memories")
