"""`groundwire demo`: the whole pipeline on the bundled example claims, start to finish.

It starts only what is missing (the local stack, via scripts/stack.sh, when no broker or
Redis answers), uses topics and dedup keys of its own (a per-run prefix, so repeated runs
never see each other's memories), and removes and stops everything it created.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Annotated

import orjson
import redis
import typer
from rich.console import Console
from rich.table import Table

import groundwire
from groundwire.streams import kafka
from groundwire.streams.admin import create_topics, delete_topics
from groundwire.streams.publish import publish_claims
from groundwire.streams.settings import Settings, load_settings
from groundwire.streams.worker import run_worker
from groundwire.topics.redact import redact_url

EXAMPLES = Path(groundwire.__file__).resolve().parent / "examples"
# In a source checkout (the only place the local stack script exists): <repo>/scripts.
STACK_SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "stack.sh"


def _reachable(host_port: str) -> bool:
    host, _, port = host_port.split(",")[0].rpartition(":")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=1.0):
            return True
    except OSError:
        return False


def _redis_reachable(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1.0).ping())
    except redis.RedisError:
        return False


def _make_git_repo(root: Path) -> str:
    """A real repository with one commit, so the commit example verifies for real."""
    git = shutil.which("git")
    if git is None:
        return "0000000"
    env_args = ["-c", "user.email=demo@groundwire.invalid", "-c", "user.name=groundwire demo"]
    subprocess.run([git, "init", "-q", str(root)], check=True)
    (root / "fix.txt").write_text("retry the webhook on 502\n", encoding="utf-8")
    subprocess.run([git, "-C", str(root), "add", "fix.txt"], check=True)
    subprocess.run(
        [git, "-C", str(root), *env_args, "commit", "-q", "-m", "fix webhook"], check=True
    )
    out = subprocess.run(
        [git, "-C", str(root), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    )
    return out.stdout.strip()[:12]


def _collect(settings: Settings, expected: int, timeout_s: float) -> list[tuple[str, dict]]:
    topics = settings.topics
    consumer = kafka.consumer(
        settings,
        group_id=f"groundwire-demo-reader-{time.time_ns()}",
        enable_auto_commit=False,
        isolation_level="read_committed",
        auto_offset_reset="earliest",
    )
    consumer.subscribe([topics.approved, topics.review, topics.blocked, topics.dlq])
    found: list[tuple[str, dict]] = []
    deadline = time.monotonic() + timeout_s
    try:
        while len(found) < expected and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None or msg.error():
                continue
            topic, value = msg.topic(), msg.value()
            if topic is None or value is None:  # only error events lack them
                continue
            found.append((topic[len(settings.topic_prefix) :], orjson.loads(value)))
    finally:
        consumer.close()
    return found


async def _run(settings: Settings, lines: list[bytes], timeout_s: float) -> list[tuple[str, dict]]:
    stop = asyncio.Event()
    worker = asyncio.create_task(run_worker(settings, stop=stop))
    try:
        sent, failures = await asyncio.to_thread(publish_claims, settings, lines)
        if failures:
            raise RuntimeError(f"could not publish: {failures[0]}")
        collect = asyncio.create_task(asyncio.to_thread(_collect, settings, sent, timeout_s))
        done, _ = await asyncio.wait({collect, worker}, return_when=asyncio.FIRST_COMPLETED)
        if worker in done:
            worker.result()  # re-raise the worker's failure
        return await collect
    finally:
        stop.set()
        await asyncio.gather(worker, return_exceptions=True)


def _table(found: list[tuple[str, dict]]) -> Table:
    table = Table(title="groundwire demo: where each claim went", show_lines=False)
    table.add_column("claim_id", overflow="fold")
    table.add_column("content", max_width=48, overflow="ellipsis")
    table.add_column("tier")
    table.add_column("reason", overflow="fold")
    style = {"approved": "green", "review": "yellow", "blocked": "red", "dlq": "magenta"}

    def order(item: tuple[str, dict]) -> str:
        _, doc = item
        return str(doc.get("claim", {}).get("claim_id") or doc.get("raw", ""))

    for topic, doc in sorted(found, key=order):
        if topic == "dlq":
            table.add_row(
                "-", doc.get("raw", "")[:80], "[magenta]dlq[/]", f"{doc['reason']}: {doc['detail']}"
            )
            continue
        claim, validation = doc["claim"], doc["validation"]
        table.add_row(
            claim["claim_id"],
            claim["content"],
            f"[{style[topic]}]{topic}[/]",
            validation["reason"],
        )
    return table


def run_demo(*, keep_stack: bool = False, timeout_s: float = 180.0) -> int:
    console = Console(width=max(Console().width, 132))
    base = load_settings()
    redis_url = base.redis_url.get_secret_value()
    started_stack = False
    if not (_reachable(base.bootstrap_servers) and _redis_reachable(redis_url)):
        if not STACK_SCRIPT.is_file():
            console.print(
                f"[red]no Kafka at {redact_url(base.bootstrap_servers)} or no Redis, "
                "and no stack script[/]"
            )
            return 1
        console.print("starting the local stack (Kafka KRaft + Redis) ...")
        result = subprocess.run(["bash", str(STACK_SCRIPT), "start"], check=False)
        if result.returncode != 0:
            console.print("[red]the local stack did not start; see .stack/logs[/]")
            return 1
        started_stack = True
    run_id = f"{int(time.time())}"
    with tempfile.TemporaryDirectory(prefix="groundwire-demo-") as tmp:
        commit = _make_git_repo(Path(tmp) / "repo")
        guards = base.guards.model_copy(deep=True)
        guards.citation.adr_dirs = [EXAMPLES / "adrs"]
        guards.citation.git_repos = [Path(tmp) / "repo"]
        guards.citation.url_timeout_s = 2.0
        guards.dedup.redis_prefix = f"gw:demo:{run_id}"
        settings = base.model_copy(
            update={
                "topic_prefix": f"groundwire.demo.{run_id}.",
                "partitions": 3,
                "worker_id": f"demo-{run_id}",
                "metrics_port": 0,
                "batch_within_s": 0.2,
                "guards": guards,
            }
        )
        text = (
            (EXAMPLES / "claims.jsonl").read_text(encoding="utf-8").replace("{demo_commit}", commit)
        )
        lines = [line.encode("utf-8") for line in text.splitlines() if line.strip()]
        try:
            for outcome in create_topics(settings):
                if outcome.status == "failed":
                    console.print(f"[red]topic {outcome.name}: {outcome.detail}[/]")
                    return 1
            console.print(f"publishing {len(lines)} example claims to {settings.topics.claims} ...")
            found = asyncio.run(_run(settings, lines, timeout_s))
        finally:
            delete_topics(settings)
            _forget_dedup_keys(redis_url, guards.dedup.redis_prefix)
            if started_stack and not keep_stack:
                subprocess.run(["bash", str(STACK_SCRIPT), "stop"], check=False)
    console.print(_table(found))
    counts: dict[str, int] = {}
    for topic, _ in found:
        counts[topic] = counts.get(topic, 0) + 1
    console.print("routed: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    if len(found) < len(lines):
        console.print(
            f"[red]only {len(found)} of {len(lines)} claims were routed within {timeout_s:.0f}s[/]"
        )
        return 1
    return 0


def _forget_dedup_keys(url: str, prefix: str) -> None:
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=1.0)
        batch = list(client.scan_iter(match=f"{prefix}*", count=500))
        if batch:
            client.delete(*batch)
    except redis.RedisError:
        pass


def demo(
    keep_stack: Annotated[
        bool, typer.Option(help="Leave a stack this command started running")
    ] = False,
    timeout: Annotated[
        float, typer.Option(help="Seconds to wait for every claim to be routed")
    ] = 180.0,
) -> None:
    """Run the pipeline on the bundled example claims; print where each went and why."""
    logging.basicConfig(level=logging.WARNING)
    raise typer.Exit(run_demo(keep_stack=keep_stack, timeout_s=timeout))


def register(app: typer.Typer) -> None:
    app.command()(demo)
