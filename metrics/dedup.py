"""Near-duplicate detection outcome: unique, duplicate, or failed (fail-closed to review).

A rising `failed` share means Redis (the dedup index) is unhealthy and claims are piling
into review instead of being approved; metrics/rules/dedup.yml alerts on it. The outcome
is the policy's own `DedupOutcome` on the validation result, recorded even when an earlier
rule (speculation) decided the tier; a claim whose dedup did not run is not counted.
"""

from __future__ import annotations

import functools

from prometheus_client import Counter

from groundwire.metrics import labels
from groundwire.metrics.registry import REGISTRY
from groundwire.topics.records import RoutedResult
from groundwire.topics.vocab import DedupOutcome

DEDUP_RESULTS = Counter(
    "groundwire_dedup_results_total",
    "Near-duplicate checks by result (unique, duplicate, failed).",
    ("result",),
    registry=REGISTRY,
)


def record_dedup(result: RoutedResult) -> None:
    found: list[Counter] = []
    dedup_series(result, found)
    for series in found:
        series.inc()


def dedup_series(result: RoutedResult, found: list[Counter]) -> None:
    """Append to `found` the series `record_dedup` counts the result in (none for the
    outcomes not counted)."""
    outcome = result.validation.dedup
    if outcome not in labels.DEDUP_NOT_COUNTED:
        found.append(_result_series(outcome))


@functools.cache
def _result_series(outcome: DedupOutcome) -> Counter:
    """One outcome's series, looked up once (`labels()` on every claim cost more than the
    increment); at most the members of `DedupOutcome`."""
    return DEDUP_RESULTS.labels(result=outcome.value)


for _result in labels.DEDUP_RESULTS:
    DEDUP_RESULTS.labels(result=_result)
