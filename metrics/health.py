"""Stage liveness: progress, input lag, client rebuilds and process restarts per stage.

These answer "is routing moving?" independently of whether the guards are right: a stage
with records waiting and no commit for minutes is stalled (GroundwireStageStalled in
metrics/rules/pipeline.yml), whatever its process claims. The last-commit time is a
timestamp, not an age, so it survives the process that wrote it and a restarted stage
that never commits still shows how long routing has stood still.
"""

from __future__ import annotations

import time

from prometheus_client import Counter, Gauge

from groundwire.metrics.registry import REGISTRY

PIPELINE_STAGES: tuple[str, ...] = ("screen", "route", "memory", "answers")
OTHER = "other"

STAGE_INPUT_LAG = Gauge(
    "groundwire_stage_input_lag",
    "Records waiting on the partitions a stage is assigned (partition end minus position).",
    ("stage",),
    registry=REGISTRY,
    multiprocess_mode="mostrecent",
)
STAGE_LAST_COMMIT = Gauge(
    "groundwire_stage_last_commit_timestamp_seconds",
    "Unix time of the stage's last committed transaction (outputs plus input offsets).",
    ("stage",),
    registry=REGISTRY,
    multiprocess_mode="max",
)
STAGE_COMMITTED = Counter(
    "groundwire_stage_committed_records_total",
    "Input records whose outputs and offsets a stage committed.",
    ("stage",),
    registry=REGISTRY,
)
STAGE_HEALTHY = Gauge(
    "groundwire_stage_healthy",
    "1 while the stage is healthy, 0 while its watchdog sees it stalled (input lag and no"
    " commit for stall_timeout_s) or its event loop stuck.",
    ("stage",),
    registry=REGISTRY,
    multiprocess_mode="mostrecent",
)
STAGE_REBUILDS = Counter(
    "groundwire_stage_client_rebuilds_total",
    "Times a stage threw its Kafka clients away after a fatal error and built new ones.",
    ("stage",),
    registry=REGISTRY,
)
STAGE_RESTARTS = Counter(
    "groundwire_stage_restarts_total",
    "Times the supervisor restarted a stage process (it exited, or its watchdog ended it).",
    ("stage",),
    registry=REGISTRY,
)


def _stage(stage: str) -> str:
    return stage if stage in PIPELINE_STAGES else OTHER


def set_stage_lag(stage: str, lag: int) -> None:
    STAGE_INPUT_LAG.labels(stage=_stage(stage)).set(max(0, int(lag)))


def observe_stage_commit(stage: str, records: int) -> None:
    STAGE_LAST_COMMIT.labels(stage=_stage(stage)).set(time.time())
    STAGE_COMMITTED.labels(stage=_stage(stage)).inc(records)


def set_stage_healthy(stage: str, healthy: bool) -> None:
    STAGE_HEALTHY.labels(stage=_stage(stage)).set(1 if healthy else 0)


def observe_stage_rebuild(stage: str) -> None:
    STAGE_REBUILDS.labels(stage=_stage(stage)).inc()


def observe_stage_restart(stage: str) -> None:
    STAGE_RESTARTS.labels(stage=_stage(stage)).inc()


for _s in (*PIPELINE_STAGES, OTHER):
    STAGE_COMMITTED.labels(stage=_s)
    STAGE_REBUILDS.labels(stage=_s)
    STAGE_RESTARTS.labels(stage=_s)
