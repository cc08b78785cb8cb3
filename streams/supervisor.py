"""Run each stage in its own process, supervised, behind one /metrics endpoint.

Why processes: the guards are CPU-bound Python, so two stages in one interpreter share one
core through the GIL, and a long CPU batch in one stage starves the other stage's event
loop (its Redis replies sit unread until they time out). One process per stage uses both
cores and keeps each loop responsive. Metrics from the children are aggregated with
prometheus-client's multiprocess mode, so operators still scrape one port per worker.

If a child dies, the supervisor stops the others and exits non-zero: the orchestrator
(Kubernetes, systemd) restarts the whole worker, and the transactional stages make that
restart safe.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Sequence
from types import FrameType

log = logging.getLogger(__name__)


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


def _child(stage: str, replica: int, log_level: str) -> None:
    import asyncio

    _die_with_parent()

    from groundwire.streams.settings import load_settings
    from groundwire.streams.worker import run_worker

    logging.basicConfig(
        level=getattr(logging, log_level.upper(), logging.INFO),
        format=f"%(asctime)s %(levelname)s [{stage}] %(name)s: %(message)s",
    )
    # The parent serves the aggregated metrics; children only record them.
    settings = load_settings(metrics_port=0)
    if replica:
        # Each replica is its own transactional producer and static group member.
        settings = settings.model_copy(update={"worker_id": f"{settings.worker_id}.{replica}"})
    asyncio.run(run_worker(settings, [stage]))


def _serve_aggregated_metrics(port: int, directory: str) -> None:
    from prometheus_client import CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=directory)
    start_http_server(port, registry=registry)


def run_supervised(stages: Sequence[str], metrics_port: int, log_level: str = "info") -> int:
    """Start one process per entry of `stages` (a stage named twice runs as two replicas
    in the same consumer group); return the exit code for the worker command."""
    metrics_dir = None
    if metrics_port:
        metrics_dir = tempfile.mkdtemp(prefix="groundwire-metrics-")
        # Must be set before any child imports prometheus_client.
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
        _serve_aggregated_metrics(metrics_port, metrics_dir)
    ctx = mp.get_context("spawn")
    children: dict[str, mp.process.BaseProcess] = {}
    for stage in stages:
        replica = sum(1 for name in children if name.split("#")[0] == stage)
        children[f"{stage}#{replica}"] = ctx.Process(
            target=_child, args=(stage, replica, log_level), name=f"gw-{stage}-{replica}"
        )
    for proc in children.values():
        proc.start()
    stopping = False

    def _stop(signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        for proc in children.values():
            if proc.is_alive() and proc.pid is not None:
                os.kill(proc.pid, signum)

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    exit_code = 0
    try:
        while any(p.is_alive() for p in children.values()):
            for stage, proc in children.items():
                if not proc.is_alive() and not stopping:
                    log.error("stage %s exited with %s; stopping the worker", stage, proc.exitcode)
                    exit_code = 1
                    _stop(signal.SIGTERM, None)
            time.sleep(0.2)
        deadline = time.monotonic() + 30
        for proc in children.values():
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
            if proc.exitcode not in (0, None, -signal.SIGTERM, -signal.SIGINT):
                exit_code = 1
    finally:
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return exit_code
