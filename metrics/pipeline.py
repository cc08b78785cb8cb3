"""Pipeline health: routing outcome, per-stage latency, dead letters, consumer lag.

These are the series SREs page on when the guards are fine but the plumbing is not
(see metrics/rules/pipeline.yml). Tier, reason and dlq reason are enum values (the
policy and the codec emit the codes); stage names go through `labels.one_of`.
"""

from __future__ import annotations

import functools

from prometheus_client import Counter, Gauge, Histogram

from groundwire.metrics import labels
from groundwire.metrics.registry import REGISTRY, STAGE_BUCKETS
from groundwire.topics.vocab import DlqReason, ReasonCode, Tier

CLAIMS_ROUTED = Counter(
    "groundwire_claims_routed_total",
    "Claims routed to an output topic, by tier and the policy's reason code.",
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

CLAIM_REPLAYS = Counter(
    "groundwire_claim_replays_total",
    "Claims published again under a claim_id already decided, with the same content: noted"
    " on audit, not decided twice (a reused id with other content is a dlq claim_id_reused).",
    registry=REGISTRY,
)

_MAX_NAME = 200  # group and topic names come from operator config, not from producers


def record_routed(tier: Tier, reason: ReasonCode) -> None:
    """Count one routed claim by its tier and the reason code the policy emitted."""
    _routed(tier, reason).inc()


def routed_series(tier: Tier, reason: ReasonCode) -> Counter:
    """The series `record_routed` counts one claim in (`observe_routed_batch` adds a
    batch's claims to each series once)."""
    return _routed(tier, reason)


@functools.cache
def _routed(tier: Tier, reason: ReasonCode) -> Counter:
    """The series of one (tier, reason), looked up once: `labels()` validates and locks
    on every call, which was ~1 % of the route stage's CPU at one call per claim. Only
    valid members are cached (an unknown value raises ValueError here, every time), so
    the cache holds at most the tier x reason series created at import."""
    return CLAIMS_ROUTED.labels(tier=Tier(tier).value, reason=ReasonCode(reason).value)


def observe_stage_latency(stage: str, seconds: float) -> None:
    """Record one timing of `stage` (screen, route, dedup, grounding, produce)."""
    if seconds < 0:  # a clock step backwards; a negative sample would corrupt _sum
        return
    STAGE_LATENCY.labels(stage=labels.one_of(stage, labels.STAGES)).observe(seconds)


def observe_dlq(reason: DlqReason) -> None:
    """Count one dead-lettered record by its reason (a value that is no `DlqReason` is a
    programming error and raises ValueError rather than inventing a label)."""
    DLQ_RECORDS.labels(reason=DlqReason(reason).value).inc()


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


def observe_claim_replay() -> None:
    CLAIM_REPLAYS.inc()
