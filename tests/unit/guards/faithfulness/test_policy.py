"""guards/faithfulness/policy.py: faithfulness, the risk table, policies, annotation."""

from __future__ import annotations

import pytest

from groundwire.guards.config import FaithfulnessConfig
from groundwire.guards.faithfulness.policy import (
    annotate,
    classify_risk,
    faithfulness,
    policy_for,
    trigger_for,
)
from groundwire.topics.answers import AnswerClaim
from groundwire.topics.vocab import (
    AnswerClaimVerdict,
    AnswerPolicy,
    ClaimKind,
    RiskLevel,
)

CFG = FaithfulnessConfig()
S, U = AnswerClaimVerdict.SUPPORTED, AnswerClaimVerdict.UNSUPPORTED


def claims(*spec: tuple[AnswerClaimVerdict | None, bool]) -> list[AnswerClaim]:
    return [
        AnswerClaim(
            index=i,
            text=f"claim {i}",
            start=i * 10,
            end=i * 10 + 9,
            kind=ClaimKind.FACTUAL if verdict is not None else ClaimKind.OPINION,
            verdict=verdict,
            critical=critical,
            reason="" if verdict in (S, None) else f"why {i}",
        )
        for i, (verdict, critical) in enumerate(spec)
    ]


@pytest.mark.parametrize(
    ("spec", "risk"),
    [
        ([(S, True)] * 4, RiskLevel.NONE),
        ([(None, False)], RiskLevel.NONE),  # nothing factual, nothing unsupported
        ([(S, False)] * 8 + [(U, False)], RiskLevel.LOW),  # one non-critical of nine
        ([(S, False)] * 8 + [(U, False)] * 2, RiskLevel.LOW),
        ([(S, False)] * 8 + [(U, True)], RiskLevel.MEDIUM),  # a critical one
        ([(S, False)] * 8 + [(AnswerClaimVerdict.CONTRADICTED, False)], RiskLevel.MEDIUM),
        ([(S, False)] * 9 + [(U, False)] * 3, RiskLevel.HIGH),  # three unsupported
        ([(S, False)] * 2 + [(U, False)], RiskLevel.MEDIUM),  # 0.67 <= 0.7 medium
        ([(S, False), (U, False)], RiskLevel.HIGH),  # 0.5 <= 0.5 high
        ([(S, False)] * 9 + [(AnswerClaimVerdict.REJECTED, False)], RiskLevel.HIGH),
    ],
)
def test_risk_table(spec: list[tuple[AnswerClaimVerdict | None, bool]], risk: RiskLevel) -> None:
    found = claims(*spec)
    assert classify_risk(found, faithfulness(found), CFG) is risk


def test_the_spec_example_two_of_four_is_high() -> None:
    found = claims((S, True), (S, True), (U, True), (U, True))
    assert faithfulness(found) == 0.5
    assert classify_risk(found, 0.5, CFG) is RiskLevel.HIGH


def test_stricter_thresholds_raise_the_risk() -> None:
    strict = FaithfulnessConfig(risk_thresholds={"medium": 0.8, "high": 0.5})
    found = claims(*([(S, False)] * 7 + [(U, False)] * 2))  # 0.78
    assert classify_risk(found, faithfulness(found), CFG) is RiskLevel.LOW
    assert classify_risk(found, faithfulness(found), strict) is RiskLevel.MEDIUM


def test_thresholds_must_be_ordered() -> None:
    with pytest.raises(ValueError):
        FaithfulnessConfig(risk_thresholds={"medium": 0.4, "high": 0.5})


def test_policy_per_tenant_with_a_default() -> None:
    cfg = FaithfulnessConfig(on_hallucination="warn", tenant_policies={"clinic": "block"})
    assert policy_for("clinic", cfg) is AnswerPolicy.BLOCK
    assert policy_for("anyone", cfg) is AnswerPolicy.WARN
    assert trigger_for(AnswerPolicy.WARN, cfg) is RiskLevel.MEDIUM
    assert trigger_for(AnswerPolicy.REGENERATE, cfg) is RiskLevel.HIGH
    assert trigger_for(AnswerPolicy.BLOCK, cfg) is RiskLevel.LOW


def test_annotate_puts_one_note_after_each_sentence() -> None:
    text = "A is true. B and C are true."
    found = [
        AnswerClaim(index=0, text="A", start=0, end=10, kind=ClaimKind.FACTUAL, verdict=S),
        AnswerClaim(
            index=1, text="B", start=11, end=28, kind=ClaimKind.FACTUAL, verdict=U, reason="no B"
        ),
        AnswerClaim(
            index=2, text="C", start=11, end=28, kind=ClaimKind.FACTUAL, verdict=U, reason="no C"
        ),
    ]
    assert annotate(text, found) == "A is true. B and C are true. [unverified: no B; no C]"
