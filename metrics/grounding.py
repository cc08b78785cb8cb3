"""Guard 1 (write-time grounding): verdicts, verifier latency, hallucinations blocked.

The guard-1 signals of docs/spec.md §Metrics and alerts, measured in seconds with
histograms rather than in milliseconds with quantiles: a histogram aggregates across
workers, a client-side quantile does not. `groundwire_hallucination_blocked_total` over
the non-skipped verdicts is the guard-1 block rate the alerts in
metrics/rules/grounding.yml watch.
"""

from __future__ import annotations

import functools

from prometheus_client import Counter, Histogram

from groundwire.metrics import labels
from groundwire.metrics.registry import GROUNDING_BUCKETS, REGISTRY
from groundwire.topics.records import RoutedResult, Tier
from groundwire.topics.vocab import GroundingVerdict

GROUNDING_VERDICTS = Counter(
    "groundwire_grounding_verdicts_total",
    "Grounding verdicts (supported, partial, not_supported, unknown, skipped).",
    ("verdict",),
    registry=REGISTRY,
)
GROUNDING_LATENCY = Histogram(
    "groundwire_grounding_latency_seconds",
    "Latency of one grounding verifier call.",
    buckets=GROUNDING_BUCKETS,
    registry=REGISTRY,
)
HALLUCINATIONS_BLOCKED = Counter(
    "groundwire_hallucination_blocked_total",
    "Claims blocked because grounding found them NOT_SUPPORTED by their source.",
    registry=REGISTRY,
)


def observe_grounding_latency(seconds: float) -> None:
    """Record one verifier call's latency (seconds)."""
    if seconds >= 0:
        GROUNDING_LATENCY.observe(seconds)


def record_grounding(result: RoutedResult) -> None:
    """Count the claim's verdict and, if NOT_SUPPORTED led to a block, one hallucination."""
    found: list[Counter] = []
    grounding_series(result, found)
    for series in found:
        series.inc()


def grounding_series(result: RoutedResult, found: list[Counter]) -> None:
    """Append to `found` the series `record_grounding` counts the result in."""
    verdict = result.grounding.verdict
    found.append(_verdict_series(verdict))
    if verdict is GroundingVerdict.NOT_SUPPORTED and result.validation.tier is Tier.BLOCK:
        found.append(HALLUCINATIONS_BLOCKED)


@functools.cache
def _verdict_series(verdict: GroundingVerdict) -> Counter:
    """One verdict's series, looked up once (`labels()` validates and locks on every
    call); at most the members of `GroundingVerdict`."""
    return GROUNDING_VERDICTS.labels(verdict=verdict.value)


for _verdict in labels.GROUNDING_VERDICTS:
    GROUNDING_VERDICTS.labels(verdict=_verdict)
