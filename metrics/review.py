"""The review queue: how much waits, for how long, what people decide, and who was refused.

Depth and the oldest item's age are measured from Redis by the service every
`review.gauge_interval_s` (several replicas report the same values: aggregate with max).
Decisions, overflow and denials are counted where they happen; audit events where the
relay writes them to Kafka (once each). Labels are the review enums of topics/vocab.py.
"""

from __future__ import annotations

import time

from prometheus_client import Counter, Gauge, Histogram

from groundwire.metrics import labels
from groundwire.metrics.registry import REGISTRY
from groundwire.topics.vocab import ReviewAction, ReviewDecision, ReviewDenial, ReviewLimit

# Time to decision: people take minutes to weeks.
DECISION_BUCKETS: tuple[float, ...] = (
    60.0,
    300.0,
    900.0,
    3_600.0,
    14_400.0,
    43_200.0,
    86_400.0,
    259_200.0,
    604_800.0,
    1_209_600.0,
    2_592_000.0,
)

QUEUE_DEPTH = Gauge(
    "groundwire_review_queue_depth",
    "Claims pending review in the whole queue.",
    registry=REGISTRY,
    multiprocess_mode="max",
)
OLDEST_AGE = Gauge(
    "groundwire_review_oldest_item_age_seconds",
    "Age of the oldest pending claim (0 when the queue is empty).",
    registry=REGISTRY,
    multiprocess_mode="max",
)
OUTBOX = Gauge(
    "groundwire_review_outbox_entries",
    "Actions recorded in Redis and not yet written to Kafka by the relay.",
    registry=REGISTRY,
    multiprocess_mode="max",
)
ENQUEUED = Counter(
    "groundwire_review_enqueued_total",
    "Flagged claims that joined the review queue.",
    registry=REGISTRY,
)
OVERFLOW = Counter(
    "groundwire_review_overflow_total",
    "Flagged claims sent to blocked (review_queue_full) because a queue bound was reached.",
    ("limit",),
    registry=REGISTRY,
)
DECISIONS = Counter(
    "groundwire_review_decisions_total",
    "Review decisions taken, by decision.",
    ("decision",),
    registry=REGISTRY,
)
TIME_TO_DECISION = Histogram(
    "groundwire_review_time_to_decision_seconds",
    "From a claim joining the queue to a person's decision.",
    ("decision",),
    buckets=DECISION_BUCKETS,
    registry=REGISTRY,
)
DENIED = Counter(
    "groundwire_review_denied_total",
    "Requests the review service refused, by why (not_found and not_owner answer the"
    " caller alike).",
    ("denial",),
    registry=REGISTRY,
)
AUDITED = Counter(
    "groundwire_review_audit_events_total",
    "Review actions the relay wrote to the audit topic, by action.",
    ("action",),
    registry=REGISTRY,
)
RELAY_LAST_COMMIT = Gauge(
    "groundwire_review_relay_last_commit_timestamp_seconds",
    "Unix time the relay last committed outbox entries to Kafka.",
    registry=REGISTRY,
    multiprocess_mode="max",
)


def set_queue(depth: int, oldest_submitted_s: float | None, outbox: int) -> None:
    QUEUE_DEPTH.set(depth)
    age = max(0.0, time.time() - oldest_submitted_s) if oldest_submitted_s is not None else 0.0
    OLDEST_AGE.set(age)
    OUTBOX.set(outbox)


def observe_enqueued(n: int = 1) -> None:
    ENQUEUED.inc(n)


def observe_overflow(limit: ReviewLimit) -> None:
    OVERFLOW.labels(limit=ReviewLimit(limit).value).inc()


def observe_decision(decision: ReviewDecision, waited_s: float) -> None:
    value = ReviewDecision(decision).value
    DECISIONS.labels(decision=value).inc()
    TIME_TO_DECISION.labels(decision=value).observe(max(0.0, waited_s))


def observe_denied(denial: ReviewDenial) -> None:
    DENIED.labels(denial=ReviewDenial(denial).value).inc()


def observe_audited(action: ReviewAction, n: int = 1) -> None:
    AUDITED.labels(action=ReviewAction(action).value).inc(n)


def observe_relay_commit() -> None:
    RELAY_LAST_COMMIT.set(time.time())


for _limit in labels.REVIEW_LIMITS:
    OVERFLOW.labels(limit=_limit)
for _decision in labels.REVIEW_DECISIONS:
    DECISIONS.labels(decision=_decision)
    TIME_TO_DECISION.labels(decision=_decision)
for _denial in labels.REVIEW_DENIALS:
    DENIED.labels(denial=_denial)
for _action in labels.REVIEW_ACTIONS:
    AUDITED.labels(action=_action)
