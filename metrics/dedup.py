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

    guards/policy.py reports "duplicate_of: <id>" or "dedup_failed: <error>" in
    checks_failed and "not_duplicate" in checks_passed, even when an earlier rule
    (speculation) decided the tier. `duplicate_of` on the result and the policy's reason
    are honoured too, so other wordings of the same facts still count.
    """
    failed = [c.strip().lower() for c in result.validation.checks_failed]
    passed = [c.strip().lower() for c in result.validation.checks_passed]
    reason = labels.reason_code(result.validation.reason)
    if (
        result.duplicate_of
        or reason == "duplicate"
        or any(c.startswith("duplicate") for c in failed)
    ):
        return "duplicate"
    if reason == "dedup_failed" or any("dedup" in c for c in failed):
        return "failed"
    if any("dedup" in c or "duplicate" in c for c in passed):
        return "unique"
    return None


def record_dedup(result: RoutedResult) -> None:
    outcome = dedup_result(result)
    if outcome is not None:
        DEDUP_RESULTS.labels(result=outcome).inc()


for _result in labels.DEDUP_RESULTS:
    DEDUP_RESULTS.labels(result=_result)
