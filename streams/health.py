"""Is each stage making progress? The watchdog that answers it, and the endpoint that serves it.

A stage is healthy while it commits or has nothing to do. It is stalled when records wait
on its partitions (input lag > 0) and it has committed nothing for `stall_timeout_s`:
whatever the cause (a broker that came back to a client that will not recover, a
dependency that hangs, a bug), routing has stopped. The watchdog runs in a thread of its
own, so it sees a stall even when the event loop is stuck; it publishes the verdict
(metric, status file for the supervisor) and, when a stage stays stalled, ends the
process with STALLED_EXIT so the supervisor starts it again from the committed offsets.

The supervisor serves `/healthz` (200 when every stage process is alive and healthy,
503 otherwise, JSON either way) next to the aggregated `/metrics`.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from groundwire.streams import telemetry
from groundwire.streams.runner import StageRunner
from groundwire.topics.redact import redact_url

log = logging.getLogger(__name__)

STALLED_EXIT = 75  # the process ended itself because a stage stalled (EX_TEMPFAIL)
STATUS_STALE_S = 15.0  # a status file older than this means the process stopped reporting


@dataclass(frozen=True, slots=True)
class StageStatus:
    stage: str
    replica: int
    pid: int
    healthy: bool
    state: str
    lag: int | None
    seconds_since_commit: float
    committed_records: int
    rebuilds: int
    reason: str
    updated_at: float  # unix time

    @property
    def fresh(self) -> bool:
        return time.time() - self.updated_at < STATUS_STALE_S


def status_of(runner: StageRunner, replica: int, stall_timeout_s: float) -> StageStatus:
    p = runner.progress
    now = time.monotonic()
    idle = now - p.idle_since()
    reason = ""
    if p.lag and idle > stall_timeout_s:
        reason = f"{p.lag} records waiting and no commit for {idle:.0f}s"
    elif p.state in ("starting", "rebuilding") and now - p.state_since > stall_timeout_s:
        problem = redact_url(p.problem) if p.problem else "broker unreachable"
        reason = f"{p.state} for {now - p.state_since:.0f}s: {problem}"
    stalled = bool(reason)
    if stalled:
        reason += f" (limit {stall_timeout_s:.0f}s)"
    return StageStatus(
        stage=runner.stage.name,
        replica=replica,
        pid=os.getpid(),
        healthy=not stalled,
        state=p.state,
        lag=p.lag,
        seconds_since_commit=round(idle, 1),
        committed_records=p.committed_records,
        rebuilds=p.rebuilds,
        reason=reason,
        updated_at=time.time(),
    )


class Watchdog:
    """Checks every runner each `interval_s`; publishes health; ends a stalled process.

    `exit` is injectable for tests; by default os._exit, because a stalled process may
    hold threads that a normal shutdown would wait on forever.
    """

    def __init__(
        self,
        runners: Sequence[StageRunner],
        *,
        replica: int,
        stall_timeout_s: float,
        status_dir: Path | None = None,
        interval_s: float = 1.0,
        exit: Callable[[int], None] = os._exit,
    ) -> None:
        self.runners = list(runners)
        self.replica = replica
        self.stall_timeout_s = stall_timeout_s
        self.status_dir = status_dir
        self.interval_s = interval_s
        self._exit = exit
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="gw-watchdog", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()

    def statuses(self) -> list[StageStatus]:
        return [status_of(r, self.replica, self.stall_timeout_s) for r in self.runners]

    def check(self) -> list[StageStatus]:
        """One round: publish each stage's health; end the process if one is stalled."""
        statuses = self.statuses()
        for status in statuses:
            telemetry.stage_healthy(status.stage, status.healthy)
            if self.status_dir is not None:
                _write_status(self.status_dir, status)
        stalled = [s for s in statuses if not s.healthy]
        if stalled:
            for s in stalled:
                log.critical("stage %s stalled: %s; exiting for a restart", s.stage, s.reason)
            self._exit(STALLED_EXIT)
        return statuses

    def _run(self) -> None:
        while not self._stopped.wait(self.interval_s):
            try:
                self.check()
            except Exception:  # the watchdog must outlive any bug in reporting
                log.exception("watchdog round failed")


def _status_path(status_dir: Path, stage: str, replica: int) -> Path:
    return status_dir / f"{stage}-{replica}.json"


def _write_status(status_dir: Path, status: StageStatus) -> None:
    path = _status_path(status_dir, status.stage, status.replica)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(asdict(status)), encoding="utf-8")
    tmp.replace(path)  # atomic: the supervisor never reads half a file


def read_status(status_dir: Path, stage: str, replica: int) -> StageStatus | None:
    try:
        data = json.loads(_status_path(status_dir, stage, replica).read_text(encoding="utf-8"))
        return StageStatus(**data)
    except (OSError, ValueError, TypeError):
        return None


def health_report(
    children: Sequence[tuple[str, int, bool]], status_dir: Path
) -> tuple[bool, dict[str, object]]:
    """(healthy, body) for /healthz from the supervisor's children: (stage, replica, alive)."""
    stages = []
    ok = True
    for stage, replica, alive in children:
        status = read_status(status_dir, stage, replica)
        entry: dict[str, object] = {"stage": stage, "replica": replica, "alive": alive}
        if status is not None:
            entry |= asdict(status)
            entry["fresh"] = status.fresh
        healthy = alive and status is not None and status.fresh and status.healthy
        entry["healthy"] = healthy
        ok &= healthy
        stages.append(entry)
    return ok, {"healthy": ok, "stages": stages}


# How long one connection of the endpoint may take to send its request: without a bound, a
# client that connects and says nothing (or drips) holds a thread for good, and enough of
# them exhaust the worker whose liveness probe this endpoint is.
REQUEST_TIMEOUT_S = 10.0


def serve(
    port: int, registry: CollectorRegistry, health: Callable[[], tuple[bool, dict[str, object]]]
) -> ThreadingHTTPServer:
    """`/metrics` (Prometheus text) and `/healthz` (JSON; 200 healthy, 503 not)."""

    class Handler(BaseHTTPRequestHandler):
        timeout = REQUEST_TIMEOUT_S  # a socket timeout on every read of the request

        def do_GET(self) -> None:
            if self.path.split("?", 1)[0] == "/metrics":
                body, status, ctype = generate_latest(registry), 200, CONTENT_TYPE_LATEST
            elif self.path.split("?", 1)[0] == "/healthz":
                ok, report = health()
                body = json.dumps(report).encode()
                status, ctype = (200 if ok else 503), "application/json"
            else:
                body, status, ctype = b"not found\n", 404, "text/plain"
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            return  # scrapes every few seconds would flood the log

    server = ThreadingHTTPServer(("0.0.0.0", port), Handler)
    threading.Thread(target=server.serve_forever, name="gw-http", daemon=True).start()
    return server
