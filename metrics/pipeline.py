"""Pipeline health: routing outcome, per-stage latency, dead letters, consumer lag.

These are the series SREs page on when the guards are fine but the plumbing is not
(see metrics/rules/pipeline.yml). Label values come only from `labels`, so they are
bounded whatever the worker passes in.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

from groundwire.metrics import labels
from groundwire.metrics.registry import REGISTRY, STAGE_BUCKETS

CLAIMS_ROUTED = Counter(
    "groundwire_claims_routed_total",
    "Claims routed to an output topic, by tier and bounded reason code.",
    ("tier", "reason"),
    registry=REGISTRY,
)
STAGE_LATENCY = Histogram(
    "groundwire_stage_latency_seconds",
    "Wall time of one unit of work in a pipeline stage (the worker times whole batches).",
    ("stage",),
    buckets=STAGE_BUCKETS,
    registry=REGISTRY,
)
DLQ_RECORDS = Counter(
    "groundwire_dlq_records_total",
    "Input records sent to the dead-letter topic, by machine-readable reason.",
    ("reason",),
    registry=REGISTRY,
)
CONSUMER_LAG = Gauge(
    "groundwire_consumer_lag",
    "Records between a consumer group's committed offset and the partition end.",
    ("group", "topic", "partition"),
    registry=REGISTRY,
    # Under the supervisor (one process per stage, prometheus-client multiprocess mode)
    # each partition is reported by the one process consuming it; the latest value wins
    # and no per-pid series appear.
    multiprocess_mode="mostrecent",
)

_MAX_NAME = 200  # group and topic names come from operator config, not from producers


def record_routed(tier: str, reason: str) -> None:
    """Count one routed claim; `reason` may be free text (it is mapped to a code)."""
    CLAIMS_ROUTED.labels(
        tier=labels.one_of(tier, labels.TIERS), reason=labels.reason_code(reason)
    ).inc()


def observe_stage_latency(stage: str, seconds: float) -> None:
    """Record one timing of `stage` (screen, route, dedup, grounding, produce)."""
    if seconds < 0:  # a clock step backwards; a negative sample would corrupt _sum
        return
    STAGE_LATENCY.labels(stage=labels.one_of(stage, labels.STAGES)).observe(seconds)


def observe_dlq(reason: str) -> None:
    """Count one dead-lettered record by reason (labels.DLQ_REASONS; anything else is other)."""
    DLQ_RECORDS.labels(reason=labels.one_of(reason, labels.DLQ_REASONS)).inc()


def set_consumer_lag(group: str, topic: str, partition: int, lag: int) -> None:
    """Publish the lag of one partition; negative lags (offsets racing) are clamped to 0."""
    CONSUMER_LAG.labels(
        group=str(group)[:_MAX_NAME], topic=str(topic)[:_MAX_NAME], partition=str(int(partition))
    ).set(max(0, int(lag)))


def _initialise() -> None:
    """Create every bounded series at 0 so rates and increases are exact from the first scrape.

    A labelled series that first appears with a non-zero value loses those first events
    to `increase()`; pre-creating them also lets alerts see a 0 rather than "no data".
    """
    for tier in labels.TIERS:
        for reason in labels.REASON_CODES:
            CLAIMS_ROUTED.labels(tier=tier, reason=reason)
    for reason in labels.DLQ_REASONS:
        DLQ_RECORDS.labels(reason=reason)
    for stage in labels.STAGES:
        STAGE_LATENCY.labels(stage=stage)


_initialise()
