"""One groundwire worker process: the chosen stages, the metrics endpoint, clean shutdown.

`groundwire worker` runs one process per stage under `supervisor.py`; each process runs
`run_worker` for its stage (`--inline` runs all stages here, as loops on one asyncio event
loop; librdkafka's blocking calls run in threads and release the GIL). Scale out by
starting more workers (each with its own GROUNDWIRE_WORKER_ID): Kafka's consumer groups
spread the partitions, and per-tenant keying keeps one tenant on one partition.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from collections.abc import Coroutine, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from groundwire.guards.factory import (
    GuardServices,
    build_citation_verifier,
    build_grounder,
    build_validator,
)
from groundwire.metrics.registry import REGISTRY
from groundwire.streams import health, telemetry
from groundwire.streams.health import Watchdog
from groundwire.streams.ledger import ClaimLedger, build_claim_ledger
from groundwire.streams.runner import StageRunner
from groundwire.streams.settings import Settings
from groundwire.streams.stages import ALL_STAGES, STAGES, RouteStage, ScreenStage

log = logging.getLogger(__name__)


def guard_services(settings: Settings) -> GuardServices:
    return GuardServices(
        redis_url=settings.redis_url.get_secret_value(),
        redis_cluster=settings.redis_cluster,
        on_citation_lookups=telemetry.citation_lookups,
        on_citation_cache_error=telemetry.citation_cache_error,
    )


def _claim_ledger(settings: Settings) -> ClaimLedger | None:
    cfg = settings.claim_ledger
    if not cfg.enabled:
        return None
    return build_claim_ledger(
        settings.redis_url.get_secret_value(),
        # Scoped by the topic prefix: a claim_id names a claim of one deployment's claims
        # topic, and deployments (or test runs) may share a Redis.
        prefix=f"{cfg.redis_prefix}:{settings.topic_prefix}",
        retention_s=cfg.retention_s,
        timeout_s=cfg.redis_timeout_s,
        cluster=settings.redis_cluster,
    )


def tune_gc(settings: Settings) -> None:
    """Apply the settings' GC tuning once everything long-lived has been built."""
    if settings.gc_freeze:
        gc.collect()
        gc.freeze()
    if settings.gc_gen0_threshold:
        _gen0, gen1, gen2 = gc.get_threshold()
        gc.set_threshold(settings.gc_gen0_threshold, gen1, gen2)


async def run_worker(
    settings: Settings,
    stages: Sequence[str] = STAGES,
    stop: asyncio.Event | None = None,
    *,
    replica: int = 0,
    status_dir: Path | None = None,
) -> None:
    """Run until SIGTERM/SIGINT (or `stop` is set); finish the batch in flight, then close.

    A watchdog thread ends the process (exit code STALLED_EXIT) when a stage stalls; under
    the supervisor it reports through `status_dir`, and the supervisor restarts it.
    Without a supervisor, `metrics_port` serves /metrics and /healthz from here.
    """
    unknown = set(stages) - set(ALL_STAGES)
    if unknown:
        raise ValueError(f"unknown stage(s) {sorted(unknown)}; choose from {ALL_STAGES}")
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread
            loop.add_signal_handler(sig, stop.set)
    guards = settings.guards
    services = guard_services(settings)
    telemetry.watch_llm_usage()
    citation_verifier = build_citation_verifier(guards, services)
    runners: list[StageRunner] = []
    if "screen" in stages:
        grounder = build_grounder(guards) if settings.grounding_stage == "screen" else None
        screen = ScreenStage(settings, citation_verifier, grounder)
        runners.append(StageRunner(settings, screen, stop))
    if "answers" in stages:  # opt-in: read-time faithfulness
        from groundwire.streams.answers.factory import answer_limits, build_answer_scorer
        from groundwire.streams.stages.answers import AnswersStage

        scorer = build_answer_scorer(settings)
        answers = AnswersStage(settings, scorer, answer_limits(settings))
        runners.append(StageRunner(settings, answers, stop))
    if "route" in stages:
        validator = build_validator(guards, services, citation_verifier)
        route = RouteStage(settings, validator, _claim_ledger(settings))
        runners.append(StageRunner(settings, route, stop))
    extra: list[Coroutine[Any, Any, None]] = []
    if "memory" in stages:
        from groundwire.streams.memory import build_memory_stage

        memory, scheduler = build_memory_stage(settings, services, stop)
        runners.append(StageRunner(settings, memory, stop))
        if scheduler is not None:
            extra.append(scheduler.run())
    watchdog = Watchdog(
        runners,
        replica=replica,
        stall_timeout_s=settings.stall_timeout_s,
        status_dir=status_dir,
    )
    server = None
    if settings.metrics_port:
        server = health.serve(settings.metrics_port, REGISTRY, lambda: _inline_health(watchdog))
    watchdog.start()
    tune_gc(settings)
    log.info("worker %s running stages %s", settings.worker_id, [r.stage.name for r in runners])
    tasks = [asyncio.create_task(r.run(), name=f"stage-{r.stage.name}") for r in runners]
    tasks += [asyncio.create_task(job, name="consistency-schedule") for job in extra]
    try:
        done, _pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            if task.exception() is not None:
                stop.set()
                raise task.exception()  # type: ignore[misc]
    finally:
        stop.set()
        watchdog.stop()
        await asyncio.gather(*tasks, return_exceptions=True)
        await citation_verifier.aclose()
        if server is not None:
            server.shutdown()


def _inline_health(watchdog: Watchdog) -> tuple[bool, dict[str, object]]:
    statuses = watchdog.statuses()
    healthy = all(s.healthy for s in statuses)
    return healthy, {"healthy": healthy, "stages": [asdict(s) for s in statuses]}
