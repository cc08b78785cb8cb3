"""Liveness without a broker: the runner isolates poison records, the watchdog ends a
stalled stage, the supervisor starts stopped stages again."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from redis import exceptions as redis_errors

from groundwire.streams.health import STALLED_EXIT, Watchdog, health_report, read_status
from groundwire.streams.runner import Output, StageRunner, is_outage
from groundwire.streams.settings import Settings
from groundwire.streams.supervisor import Supervisor


class FakeMessage:
    def __init__(self, value: bytes, offset: int) -> None:
        self._value = value
        self._offset = offset

    def value(self) -> bytes:
        return self._value

    def topic(self) -> str:
        return "in"

    def partition(self) -> int:
        return 0

    def offset(self) -> int:
        return self._offset


class PoisonStage:
    """Raises on any batch containing a record whose value is in `poison`."""

    name = "screen"
    source_topic = "in"

    def __init__(self, poison: set[bytes]) -> None:
        self.poison = poison
        self.calls = 0

    async def process(self, messages: Sequence[Any]) -> list[Output]:
        self.calls += 1
        if any(m.value() in self.poison for m in messages):
            raise RecursionError("boom")
        return [Output("out", None, m.value()) for m in messages]

    def dead_letter(self, message: Any, reason: str, detail: str) -> Output:
        return Output("dlq", None, f"{reason}:{detail}".encode())

    async def close(self) -> None:
        return None


def _runner(stage: PoisonStage, **settings: Any) -> StageRunner:
    return StageRunner(Settings(metrics_port=0, **settings), stage, asyncio.Event())


def test_a_poison_record_is_dead_lettered_and_the_rest_go_through() -> None:
    stage = PoisonStage({b"bad"})
    runner = _runner(stage, record_max_attempts=2)
    batch = [FakeMessage(v, i) for i, v in enumerate([b"a", b"bad", b"c"])]
    outputs = asyncio.run(runner._outputs(batch))
    assert outputs is not None
    assert [o.topic for o in outputs] == ["out", "dlq", "out"]
    assert outputs[1].value.startswith(b"processing_failed:RecursionError")
    assert stage.calls == 1 + 1 + 2 + 1  # the batch, then a, bad twice, c


def test_when_every_record_fails_the_batch_is_replayed_not_dead_lettered() -> None:
    stage = PoisonStage({b"a", b"b"})
    outputs = asyncio.run(_runner(stage)._outputs([FakeMessage(b"a", 0), FakeMessage(b"b", 1)]))
    assert outputs is None


class _Progress:
    def __init__(self, lag: int | None, idle_s: float) -> None:
        self.state = "running"
        self.lag = lag
        self.committed_records = 0
        self.rebuilds = 0
        self._since = time.monotonic() - idle_s

    def idle_since(self) -> float:
        return self._since


class _Runner:
    def __init__(self, name: str, lag: int | None, idle_s: float) -> None:
        self.stage = type("S", (), {"name": name})()
        self.progress = _Progress(lag, idle_s)


def test_watchdog_ends_the_process_only_when_input_waits_and_nothing_commits(
    tmp_path: Path,
) -> None:
    exits: list[int] = []
    busy_idle = Watchdog(
        [_Runner("route", lag=0, idle_s=500)],  # nothing to do: healthy however long
        replica=0,
        stall_timeout_s=60,
        status_dir=tmp_path,
        exit=exits.append,
    )
    assert busy_idle.check()[0].healthy and exits == []
    stalled = Watchdog(
        [_Runner("screen", lag=12, idle_s=61)],
        replica=1,
        stall_timeout_s=60,
        status_dir=tmp_path,
        exit=exits.append,
    )
    (status,) = stalled.check()
    assert not status.healthy and "12 records waiting" in status.reason
    assert exits == [STALLED_EXIT]
    assert read_status(tmp_path, "screen", 1) == status
    ok, report = health_report([("route", 0, True), ("screen", 1, True)], tmp_path)
    assert not ok
    assert [s["healthy"] for s in report["stages"]] == [True, False]  # type: ignore[index]
    ok, _ = health_report([("route", 0, False)], tmp_path)  # a dead process is unhealthy
    assert not ok


def _exit_at_once(stage: str, replica: int, log_level: str, status_dir: str) -> None:
    with Path(status_dir, f"{stage}-{replica}.started").open("a") as out:
        out.write(f"{os.getpid()}\n")
    os._exit(3)


@pytest.mark.timeout(60)
def test_supervisor_restarts_a_stage_that_exits(tmp_path: Path) -> None:
    sup = Supervisor(["screen"], "warning", tmp_path, multiprocess=False, target=_exit_at_once)
    sup.start(sup.children[0])
    started = tmp_path / "screen-0.started"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        sup.tick()
        if started.exists() and len(started.read_text().split()) >= 3:
            break
        time.sleep(0.05)
    assert sup.children[0].restarts >= 2
    starts = started.read_text().split()
    assert len(starts) >= 3 and len(set(starts)) == len(starts)  # a new process each time
    sup.stopping = True
    assert sup.join(5) in (0, 1)


def test_the_endpoint_serves_metrics_and_health() -> None:
    import json
    import socket
    import urllib.error
    import urllib.request

    from groundwire.metrics.registry import REGISTRY
    from groundwire.streams.health import serve

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    state = {"ok": True}
    server = serve(port, REGISTRY, lambda: (state["ok"], {"healthy": state["ok"]}))
    try:
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{base}/metrics", timeout=5) as resp:
            assert "groundwire_claims_routed_total" in resp.read().decode()
        with urllib.request.urlopen(f"{base}/healthz", timeout=5) as resp:
            assert resp.status == 200 and json.loads(resp.read()) == {"healthy": True}
        state["ok"] = False
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(f"{base}/healthz", timeout=5)
        assert err.value.code == 503
    finally:
        server.shutdown()


def test_the_endpoint_drops_a_client_that_sends_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each connection has a thread: one that never sends its request must not keep it."""
    import socket

    from groundwire.metrics.registry import REGISTRY
    from groundwire.streams import health

    monkeypatch.setattr(health, "REQUEST_TIMEOUT_S", 0.5)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = health.serve(port, REGISTRY, lambda: (True, {"healthy": True}))
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as idle:
            idle.sendall(b"GET /hea")  # and nothing more
            started = time.monotonic()
            assert idle.recv(100) == b""  # closed by the server
            assert time.monotonic() - started < 3
    finally:
        server.shutdown()


class OutageStage(PoisonStage):
    """Raises a dependency error (Redis away) for the first `failures` calls."""

    def __init__(self, error: BaseException, failures: int) -> None:
        super().__init__(set())
        self.error = error
        self.failures = failures

    async def process(self, messages: Sequence[Any]) -> list[Output]:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error
        return [Output("out", None, m.value()) for m in messages]


@pytest.mark.parametrize(
    "error",
    [
        redis_errors.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused."),
        redis_errors.TimeoutError("Timeout reading from socket"),
        ConnectionRefusedError(111, "Connection refused"),
    ],
    ids=["redis-connection", "redis-timeout", "os-refused"],
)
def test_a_dependency_outage_replays_even_a_single_record_batch(error: BaseException) -> None:
    """A batch of one record that meets a Redis outage is not poison: it waits (None:
    rewound and processed again after a pause), it is never dead-lettered."""
    stage = OutageStage(error, failures=10)
    assert asyncio.run(_runner(stage)._outputs([FakeMessage(b"a", 0)])) is None
    assert stage.calls == 1  # no per-record retries: the record is not the cause


def test_an_outage_during_the_per_record_retries_replays_the_whole_batch() -> None:
    """The batch fails for a record's own reason, then Redis goes away while the records
    are retried alone: everything waits, nothing already retried is kept or dead-lettered."""

    class Mixed(PoisonStage):
        async def process(self, messages: Sequence[Any]) -> list[Output]:
            self.calls += 1
            if self.calls == 1:
                raise RecursionError("boom")
            if self.calls == 3:
                raise RuntimeError("lost") from redis_errors.ConnectionError("refused")
            return [Output("out", None, m.value()) for m in messages]

    stage = Mixed(set())
    batch = [FakeMessage(v, i) for i, v in enumerate([b"a", b"b", b"c"])]
    assert asyncio.run(_runner(stage)._outputs(batch)) is None


def test_is_outage_reads_explicit_causes_only() -> None:
    assert is_outage(OSError("reset"))
    assert is_outage(ValueError("wrapped").with_traceback(None)) is False
    try:
        try:
            raise redis_errors.ConnectionError("refused")
        except redis_errors.ConnectionError:
            raise ValueError("a bad record, raised while handling another error")  # noqa: B904
    except ValueError as exc:
        assert not is_outage(exc)  # an implicit context is not a cause
