"""groundwire.metrics: Prometheus metrics, alert rules and the hallucination dashboard.

One module per component (pipeline, screening, dedup, grounding, the review service,
faithfulness; later consistency), one rule file per component under `rules/`, one
dashboard row per component. This module re-exports the calls the worker makes; each is
cheap, thread-safe, and labels with enum values or bounded strings (see `labels`).
"""

from __future__ import annotations

from groundwire.metrics import consistency, faithfulness, health, llm, review
from groundwire.metrics.grounding import observe_grounding_latency
from groundwire.metrics.pipeline import (
    observe_claim_replay,
    observe_dlq,
    observe_stage_latency,
    set_consumer_lag,
)
from groundwire.metrics.producer_auth import observe_producer_auth, observe_producer_auth_batch
from groundwire.metrics.registry import REGISTRY
from groundwire.metrics.routed import observe_routed, observe_routed_batch
from groundwire.metrics.screening import observe_citation_cache_error, observe_citation_lookups

__all__ = [
    "REGISTRY",
    "consistency",
    "faithfulness",
    "health",
    "llm",
    "observe_citation_cache_error",
    "observe_citation_lookups",
    "observe_claim_replay",
    "observe_dlq",
    "observe_grounding_latency",
    "observe_producer_auth",
    "observe_producer_auth_batch",
    "observe_routed",
    "observe_routed_batch",
    "observe_stage_latency",
    "review",
    "set_consumer_lag",
]
