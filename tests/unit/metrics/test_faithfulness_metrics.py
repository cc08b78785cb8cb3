"""metrics/faithfulness.py: what one scored answer records (guard 3)."""

from __future__ import annotations

import asyncio

from groundwire.guards.config import GuardsConfig
from groundwire.guards.faithfulness.score import AnswerScorer
from groundwire.metrics import faithfulness, labels
from groundwire.metrics.registry import REGISTRY
from groundwire.topics.answers import Answer, ScoredAnswer


def value(name: str, **labelset: str) -> float:
    return REGISTRY.get_sample_value(name, labelset) or 0.0


def scored(text: str) -> ScoredAnswer:
    answer = Answer(
        answer_id="a",
        tenant_id="tenant-secret-123",
        text=text,
        context=[{"id": "mem_X", "text": "Inbox3 is at 60% completion.", "source": "corpus"}],
    )

    async def run() -> ScoredAnswer:
        scorer = AnswerScorer(GuardsConfig())
        try:
            return await scorer.score(answer)
        finally:
            await scorer.aclose()

    return asyncio.run(run())


def test_every_series_exists_at_zero_once_a_scorer_starts() -> None:
    faithfulness.start()
    for risk in labels.RISK_LEVELS:
        assert (
            REGISTRY.get_sample_value("groundwire_faithfulness_scores_total", {"risk": risk})
            is not None
        )
    for verdict in labels.UNSUPPORTED_VERDICTS:
        assert (
            REGISTRY.get_sample_value(
                "groundwire_faithfulness_unsupported_claims_total", {"verdict": verdict}
            )
            is not None
        )
    assert "supported" not in labels.UNSUPPORTED_VERDICTS
    assert REGISTRY.get_sample_value("groundwire_faithfulness_phantom_citations_total") is not None


def test_one_scored_answer_is_counted_once_by_risk_claims_and_citations() -> None:
    result = scored("Hi! Inbox3 is at 60% completion [source:1]. It has 9 engineers [source:4].")
    before = {
        "high": value("groundwire_faithfulness_scores_total", risk=result.risk.value),
        "count": value("groundwire_faithfulness_score_count"),
        "sum": value("groundwire_faithfulness_score_sum"),
        "unsupported": value(
            "groundwire_faithfulness_unsupported_claims_total", verdict="unsupported"
        ),
        "phantom": value("groundwire_faithfulness_phantom_citations_total"),
        "greeting": value("groundwire_faithfulness_claims_total", kind="greeting"),
        "action": value("groundwire_faithfulness_policy_applied_total", action=result.action.value),
    }
    faithfulness.observe_scored(result, 0.002)
    assert (
        value("groundwire_faithfulness_scores_total", risk=result.risk.value) == before["high"] + 1
    )
    assert value("groundwire_faithfulness_score_count") == before["count"] + 1
    assert value("groundwire_faithfulness_score_sum") == before["sum"] + 0.5
    assert value("groundwire_faithfulness_unsupported_claims_total", verdict="unsupported") == (
        before["unsupported"] + 1
    )
    assert value("groundwire_faithfulness_phantom_citations_total") == before["phantom"] + 1
    assert value("groundwire_faithfulness_claims_total", kind="greeting") == before["greeting"] + 1
    assert value("groundwire_faithfulness_policy_applied_total", action=result.action.value) == (
        before["action"] + 1
    )


def test_no_label_carries_a_tenant_or_text() -> None:
    faithfulness.observe_scored(scored("Inbox3 is at 60% completion."))
    faithfulness.observe_cache("a hostile string with tenant-secret-123")
    exposed = "\n".join(
        f"{s.name}{s.labels}"
        for metric in REGISTRY.collect()
        if metric.name.startswith("groundwire_faithfulness")
        for s in metric.samples
    )
    assert "tenant-secret-123" not in exposed and "Inbox3" not in exposed
    assert value("groundwire_faithfulness_cache_total", result="other") >= 1
