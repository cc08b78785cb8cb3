"""Near-duplicate detection outcome: unique, duplicate, or failed (fail-closed to review).

A rising `failed` share means Redis (the dedup index) is unhealthy and claims are piling
into review instead of being approved; metrics/rules/dedup.yml alerts on it.
"""

from __future__ import annotations

from prometheus_client import Counter

from groundwire.metrics import labels
from groundwire.metrics.registry import REGISTRY
from groundwire.topics.records import RoutedResult

DEDUP_RESULTS = Counter(
    "groundwire_dedup_results_total",
    "Near-duplicate checks by result (unique, duplicate, failed).",
    ("result",),
    registry=REGISTRY,
)


def dedup_result(result: RoutedResult) -> str | None:
    """Derive the dedup outcome from a routed result; None when dedup did not run.

    `duplicate_of` is authoritative for duplicates. Otherwise a failed check naming dedup
    (or the policy's fail-closed reason) means failed, and a passed one means unique.
    """
    reason = labels.reason_code(result.validation.reason)
    if result.duplicate_of or reason == "duplicate":
        return "duplicate"
    failed = (c.lower() for c in result.validation.checks_failed)
    if reason == "dedup_failed" or any("dedup" in c for c in failed):
        return "failed"
    passed = (c.lower() for c in result.validation.checks_passed)
    if any("dedup" in c or "duplicate" in c for c in passed):
        return "unique"
    return None


def record_dedup(result: RoutedResult) -> None:
    outcome = dedup_result(result)
    if outcome is not None:
        DEDUP_RESULTS.labels(result=outcome).inc()


for _result in labels.DEDUP_RESULTS:
    DEDUP_RESULTS.labels(result=_result)
