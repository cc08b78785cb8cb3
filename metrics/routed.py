"""One entry point for everything a routed result says about the guards.

The worker calls `observe_routed` once per result it has produced; each component module
records its own part, so a new guard adds its module and one line here.
"""

from __future__ import annotations

from groundwire.metrics.dedup import record_dedup
from groundwire.metrics.grounding import record_grounding
from groundwire.metrics.pipeline import record_routed
from groundwire.metrics.screening import record_screening
from groundwire.topics.records import RoutedResult


def observe_routed(result: RoutedResult) -> None:
    """Record tier/reason, hedge, citations, grounding, hallucination-blocked, dedup, re-entry."""
    record_routed(result.validation.tier, result.validation.reason_code)
    record_screening(result)
    record_grounding(result)
    record_dedup(result)
