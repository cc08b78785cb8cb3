"""Run each stage in its own process, restart the ones that stop, serve /metrics and /healthz.

Why processes: the guards are CPU-bound Python, so two stages in one interpreter share one
core through the GIL, and a long CPU batch in one stage starves the other stage's event
loop (its Redis replies sit unread until they time out). One process per stage uses both
cores and keeps each loop responsive. Metrics from the children are aggregated with
prometheus-client's multiprocess mode, so operators still scrape one port per worker.

Why restart here rather than exit: a stage process ends when its watchdog finds it
stalled, or on a crash; the other stages are fine and should keep routing. The
supervisor starts the stage again (with back-off, so a stage that dies at once does not
spin) and the transactional runner resumes from its committed offsets. The supervisor
itself only exits on SIGTERM/SIGINT, after its children.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

log = logging.getLogger(__name__)

RESTART_BACKOFF_MIN_S = 1.0
RESTART_BACKOFF_MAX_S = 30.0
# A child that ran this long before it stopped gets the minimum back-off again.
STABLE_AFTER_S = 60.0


def _die_with_parent() -> None:
    """Linux: have the kernel SIGKILL this child when the supervisor dies, as a pod would."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    except OSError:
        pass
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(1)


def _child(stage: str, replica: int, log_level: str, status_dir: str) -> None:
    import asyncio

    _die_with_parent()

    from groundwire.streams.cli.common import setup_logging
    from groundwire.streams.settings import load_settings
    from groundwire.streams.worker import run_worker

    setup_logging(log_level, f"%(asctime)s %(levelname)s [{stage}] %(name)s: %(message)s")
    # The parent serves the aggregated metrics; children only record them.
    settings = load_settings(metrics_port=0)
    if replica:
        # Each replica is its own transactional producer and static group member.
        settings = settings.model_copy(update={"worker_id": f"{settings.worker_id}.{replica}"})
    asyncio.run(run_worker(settings, [stage], replica=replica, status_dir=Path(status_dir)))


@dataclass
class _Child:
    stage: str
    replica: int
    process: mp.process.BaseProcess | None = None
    started_at: float = 0.0
    backoff_s: float = RESTART_BACKOFF_MIN_S
    restart_at: float | None = None
    restarts: int = field(default=0)

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.is_alive()


class Supervisor:
    def __init__(
        self,
        stages: Sequence[str],
        log_level: str,
        status_dir: Path,
        multiprocess: bool,
        target: Callable[[str, int, str, str], None] = _child,
    ) -> None:
        self._ctx = mp.get_context("spawn")
        self._target = target
        self._log_level = log_level
        self._status_dir = status_dir
        self._multiprocess = multiprocess
        self.children: list[_Child] = []
        for stage in stages:
            replica = sum(1 for c in self.children if c.stage == stage)
            self.children.append(_Child(stage, replica))
        self.stopping = False

    def start(self, child: _Child) -> None:
        proc = self._ctx.Process(
            target=self._target,
            args=(child.stage, child.replica, self._log_level, str(self._status_dir)),
            name=f"gw-{child.stage}-{child.replica}",
        )
        proc.start()
        child.process = proc
        child.started_at = time.monotonic()
        child.restart_at = None

    def tick(self) -> None:
        """Notice children that stopped and start them again when their back-off is over."""
        now = time.monotonic()
        for child in self.children:
            proc = child.process
            if proc is None or proc.is_alive():
                if child.restart_at is not None and now >= child.restart_at:
                    child.restarts += 1
                    _observe_restart(child.stage)
                    log.warning("restarting stage %s#%d", child.stage, child.replica)
                    self.start(child)
                continue
            if child.restart_at is not None:  # waiting out the back-off
                continue
            if self._multiprocess and proc.pid is not None:
                _mark_process_dead(proc.pid)
            ran = now - child.started_at
            if ran >= STABLE_AFTER_S:
                child.backoff_s = RESTART_BACKOFF_MIN_S
            child.restart_at = now + child.backoff_s
            log.error(
                "stage %s#%d exited with %s after %.0fs; restarting in %.0fs",
                child.stage,
                child.replica,
                proc.exitcode,
                ran,
                child.backoff_s,
            )
            child.backoff_s = min(RESTART_BACKOFF_MAX_S, child.backoff_s * 2)
            child.process = None

    def signal_all(self, signum: int) -> None:
        for child in self.children:
            if child.alive and child.process is not None and child.process.pid is not None:
                os.kill(child.process.pid, signum)

    def health(self) -> tuple[bool, dict[str, object]]:
        from groundwire.streams.health import health_report

        return health_report(
            [(c.stage, c.replica, c.alive) for c in self.children], self._status_dir
        )

    def join(self, timeout_s: float) -> int:
        deadline = time.monotonic() + timeout_s
        exit_code = 0
        for child in self.children:
            proc = child.process
            if proc is None:
                continue
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join(5)
                exit_code = 1
            elif proc.exitcode not in (0, -signal.SIGTERM, -signal.SIGINT):
                exit_code = 1
        return exit_code


def _observe_restart(stage: str) -> None:
    from groundwire.metrics.health import observe_stage_restart

    observe_stage_restart(stage)


def _mark_process_dead(pid: int) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(pid)


def run_supervised(stages: Sequence[str], metrics_port: int, log_level: str = "info") -> int:
    """Start one process per entry of `stages` (a stage named twice runs as two replicas
    in the same consumer group), keep them running; return the worker's exit code."""
    work_dir = Path(tempfile.mkdtemp(prefix="groundwire-worker-"))
    status_dir = work_dir / "status"
    status_dir.mkdir()
    metrics_dir = work_dir / "metrics"
    metrics_dir.mkdir()
    # Set before any prometheus_client import here or in a child: every process then
    # writes its samples to files the parent aggregates.
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
    supervisor = Supervisor(stages, log_level, status_dir, multiprocess=True)
    server = None
    if metrics_port:
        from prometheus_client import CollectorRegistry
        from prometheus_client.multiprocess import MultiProcessCollector

        from groundwire.streams.health import serve

        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=str(metrics_dir))
        server = serve(metrics_port, registry, supervisor.health)

    def _stop(signum: int, _frame: FrameType | None) -> None:
        supervisor.stopping = True
        supervisor.signal_all(signum)

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    try:
        for child in supervisor.children:
            supervisor.start(child)
        while not supervisor.stopping:
            supervisor.tick()
            time.sleep(0.2)
        return supervisor.join(30)
    finally:
        if server is not None:
            server.shutdown()
        shutil.rmtree(work_dir, ignore_errors=True)
