"""The stages' one doorway to the metrics module (groundwire.metrics).

Stages and the runner report named events (a routed result, a dead-lettered record, a
stage's latency, lag or health) through these functions and never touch prometheus
objects, so which instruments exist, their names and labels stay in groundwire.metrics.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from groundwire import metrics
from groundwire.metrics import faithfulness, health
from groundwire.topics.answers import ScoredAnswer
from groundwire.topics.records import RoutedResult
from groundwire.topics.vocab import DlqReason, ProducerAuthAction, ProducerAuthOutcome


def stage_latency(stage: str, seconds: float) -> None:
    metrics.observe_stage_latency(stage, seconds)


def grounding_latency(seconds: float) -> None:
    metrics.observe_grounding_latency(seconds)


def routed(result: RoutedResult) -> None:
    metrics.observe_routed(result)


def routed_batch(results: Sequence[RoutedResult]) -> None:
    """`routed` for each of a batch's results, one increment per series."""
    metrics.observe_routed_batch(results)


def citation_lookups(source: str, n: int) -> None:
    metrics.observe_citation_lookups(source, n)


def citation_cache_error(op: str) -> None:
    metrics.observe_citation_cache_error(op)


def watch_llm_usage() -> None:
    """Count this process's calls to an LLM endpoint (tokens, outcome, wall time) and the
    claims the LLM verifier handled (guards/grounding/llm_client.py reports them)."""
    from groundwire.guards.grounding import llm_client
    from groundwire.metrics import llm

    def on_call(usage: llm_client.LlmCallUsage) -> None:
        llm.observe_llm_call(
            usage.caller,
            usage.outcome,
            usage.prompt_tokens,
            usage.completion_tokens,
            usage.seconds,
        )

    def on_claim(usage: llm_client.LlmClaimUsage) -> None:
        llm.observe_llm_claim(usage.outcome, usage.seconds)

    llm_client.set_observers(on_call=on_call, on_claim=on_claim)


def producer_auth(outcome: ProducerAuthOutcome, action: ProducerAuthAction) -> None:
    metrics.observe_producer_auth(outcome, action)


def producer_auth_batch(seen: Iterable[tuple[ProducerAuthOutcome, ProducerAuthAction]]) -> None:
    """`producer_auth` for each (outcome, action) of a batch, one increment per series."""
    metrics.observe_producer_auth_batch(seen)


def dlq(reason: DlqReason) -> None:
    metrics.observe_dlq(reason)


def consumer_lag(group: str, topic: str, partition: int, lag: int) -> None:
    metrics.set_consumer_lag(group, topic, partition, lag)


def stage_lag(stage: str, lag: int) -> None:
    health.set_stage_lag(stage, lag)


def stage_committed(stage: str, records: int) -> None:
    health.observe_stage_commit(stage, records)


def stage_rebuilt(stage: str) -> None:
    health.observe_stage_rebuild(stage)


def stage_healthy(stage: str, healthy: bool) -> None:
    health.set_stage_healthy(stage, healthy)


def claim_replayed() -> None:
    metrics.observe_claim_replay()


def answer_scored(scored: ScoredAnswer, seconds: float | None = None) -> None:
    """One answer scored (read-time faithfulness), by the answers stage or the endpoint."""
    faithfulness.observe_scored(scored, seconds)
