"""One entry point for everything a routed result says about the guards.

The worker calls `observe_routed_batch` once per batch it has routed (`observe_routed`
for one result); each component module names the series its part counts in, so a new
guard adds its module and one line in `_series_of`.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Sequence

from prometheus_client import Counter

from groundwire.metrics.dedup import dedup_series
from groundwire.metrics.grounding import grounding_series
from groundwire.metrics.pipeline import routed_series
from groundwire.metrics.screening import screening_series
from groundwire.topics.records import RoutedResult


def _series_of(result: RoutedResult, found: list[Counter]) -> None:
    """Append to `found` every series the result counts in: tier/reason, hedge,
    citations, re-entry rejections, grounding verdict, hallucination blocked, dedup."""
    found.append(routed_series(result.validation.tier, result.validation.reason_code))
    screening_series(result, found)
    grounding_series(result, found)
    dedup_series(result, found)


def observe_routed(result: RoutedResult) -> None:
    """Record tier/reason, hedge, citations, grounding, hallucination-blocked, dedup, re-entry."""
    found: list[Counter] = []
    _series_of(result, found)
    for series in found:
        series.inc()


def observe_routed_batch(results: Sequence[RoutedResult]) -> None:
    """`observe_routed` for each of `results`, with one increment per series per batch.

    The counts are the same; what changes is the number of increments: a claim counts in
    ~5 series, and each increment takes the value's lock (and, under the supervisor's
    multiprocess mode, checks the pid and writes the shared file), so one per series per
    batch instead of one per claim and series saves most of the metrics' CPU per claim."""
    found: list[Counter] = []
    for result in results:
        _series_of(result, found)
    for series, n in Tally(found).items():
        series.inc(n)
