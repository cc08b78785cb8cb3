"""Conformance table: the worked examples of docs/spec.md §Tier policy and §Grounding,
through the real detectors, the real policy and the in-process Validator. Where an
example depends on something outside the guards (does ADR-003 exist? what did the
grounding verifier say?), the test feeds exactly what the example states, through the
protocol doubles of groundwire.guards.testing."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest

from groundwire.guards.config import GuardsConfig
from groundwire.guards.testing import (
    ExactDedup,
    ScriptedVerifier,
    StatedCitationVerifier,
    substring_verifier,
)
from groundwire.guards.validator import Validator
from groundwire.topics.records import Claim, EvidenceSpan, GroundingReport, RoutedResult, Tier
from groundwire.topics.vocab import ReasonCode

EXISTS = {
    "ADR-003": True,
    "ADR-999": False,
    "a1b2c3d4e5f6": True,
    "a1b2c3d4e5": True,
    "https://docs.example.com/api": True,
}
ALREADY_STORED = "Per ADR-003, we use PostgreSQL"


@dataclass
class Case:
    id: str
    content: str
    expected: Tier
    source: str = "ai_synthesis"
    memory_type: str = "fact"
    stored: bool = False  # the same content is already in the store
    dedup_fails: bool = False
    turns: list[dict] = field(default_factory=list)
    grounding: GroundingReport | None = None
    confidence: float = 1.0


WORKED_EXAMPLES_TIER_POLICY = [
    # Always Blocked (Tier 3)
    Case("block-personal-opinion", "I think we should use Redis", Tier.BLOCK),
    Case("block-admitted-uncertainty", "I guess the API supports this", Tier.BLOCK),
    Case("block-suggestion", "Maybe we could try GraphQL", Tier.BLOCK),
    Case("block-duplicate", ALREADY_STORED, Tier.BLOCK, stored=True),
    Case("block-bypass", "I think we should use Redis, definitely", Tier.BLOCK),
    # Always Accepted (Tier 1)
    Case("accept-adr", "Per ADR-003, we use PostgreSQL", Tier.AUTO_APPROVE),
    Case(
        "accept-adr-pixeltable",
        "Per ADR-003, we use Pixeltable for memory storage",
        Tier.AUTO_APPROVE,
        source="conversation",
        memory_type="decision",
    ),
    Case("accept-commit", "Fixed in commit a1b2c3d4e5", Tier.AUTO_APPROVE),
    Case("accept-commit-12", "Fixed in commit a1b2c3d4e5f6", Tier.AUTO_APPROVE),
    Case("accept-url", "See https://docs.example.com/api", Tier.AUTO_APPROVE),
    Case("accept-user", "I prefer tabs over spaces", Tier.AUTO_APPROVE, source="user"),
    Case("accept-documentation", "OAuth2 is required", Tier.AUTO_APPROVE, source="documentation"),
    Case(
        "accept-decision",
        "We decided to use PostgreSQL",
        Tier.AUTO_APPROVE,
        source="conversation",
        memory_type="decision",
    ),
    Case(
        "accept-preference-chat",
        "Prefers dark mode in the editor",
        Tier.AUTO_APPROVE,
        source="chat",
        memory_type="preference",
    ),
    # Flagged for Review (Tier 2)
    Case("review-may", "The server may timeout under load", Tier.FLAG_REVIEW),
    Case("review-typically", "Connections typically complete in <100ms", Tier.FLAG_REVIEW),
    Case("review-ai-json", "The API returns JSON for REST responses", Tier.FLAG_REVIEW),
    Case("review-ai-oauth", "OAuth2 is the authentication mechanism", Tier.FLAG_REVIEW),
    Case("review-postgres15", "The service uses PostgreSQL 15", Tier.FLAG_REVIEW),
    Case("review-unverified-adr", "Per ADR-999, we use magic", Tier.FLAG_REVIEW),
    Case(
        "review-dedup-failed",
        "The API returns JSON for REST responses",
        Tier.FLAG_REVIEW,
        dedup_fails=True,
    ),
    Case(
        "review-dedup-failed-trusted",
        "OAuth2 is required",
        Tier.FLAG_REVIEW,
        source="documentation",
        dedup_fails=True,
    ),
    # Decision tree: a technical hedge outranks a verified citation and a trusted source
    Case("tree-hedge-before-citation", "Per ADR-003, the pool may shrink", Tier.FLAG_REVIEW),
    Case("tree-hedge-before-source", "Jobs usually retry", Tier.FLAG_REVIEW, source="user"),
    # ...and speculation outranks a duplicate and any approval reason
    Case(
        "tree-speculation-first", "I think OAuth2 is required", Tier.BLOCK, source="documentation"
    ),
]

GEORGIAN_TURNS = [
    {"id": "turn-1", "source": "corpus", "text": "Let's schedule the meeting for next Tuesday."},
    {
        "id": "turn-2",
        "source": "corpus",
        "text": "I'll be joining from my home office in Bangalore.",
    },
]
MVP_TURN = "I think I should be done with the MVP by end of April, pretty confident."
WORKED_EXAMPLES_GROUNDING = [
    Case(
        "grounding-invented-employer",
        "Georgian works as a software developer at Google",
        Tier.BLOCK,
        turns=GEORGIAN_TURNS,
        confidence=0.85,
        grounding=GroundingReport(
            verdict="not_supported",
            reasoning="No mention of Google or employment in the source turns.",
        ),
    ),
    Case(
        "grounding-sharpened-plan",
        "Georgian will deliver the Inbox3 MVP by April 30 with 95% confidence",
        Tier.FLAG_REVIEW,
        turns=[{"id": "turn-1", "source": "corpus", "text": MVP_TURN}],
        confidence=0.82,
        grounding=GroundingReport(
            verdict="partial",
            confidence_penalty=0.20,
            evidence_spans=[EvidenceSpan(turn_id="turn-1", start=27, end=60, text=MVP_TURN[27:60])],
        ),
    ),
    Case(
        "grounding-sharpened-plan-below-minimum-dropped",
        "Georgian will deliver the Inbox3 MVP by April 30 with 95% confidence",
        Tier.BLOCK,
        turns=[{"id": "turn-1", "source": "corpus", "text": MVP_TURN}],
        confidence=0.45,
        grounding=GroundingReport(verdict="partial", confidence_penalty=0.20),
    ),
    Case(
        "grounding-unknown-queued",
        "Georgian lives in Bangalore",
        Tier.FLAG_REVIEW,
        turns=GEORGIAN_TURNS,
        grounding=GroundingReport(verdict="unknown"),
    ),
    Case(
        "grounding-supported",
        "Georgian works from a home office in Bangalore",
        Tier.AUTO_APPROVE,
        turns=GEORGIAN_TURNS,
        grounding=GroundingReport(verdict="supported", score=0.9),
    ),
]


def _run(cases: list[Case]) -> dict[str, RoutedResult]:
    cfg = GuardsConfig()
    cfg.grounding.skip_for_types = ["preference"]
    out: dict[str, RoutedResult] = {}
    for case in cases:  # one validator per case: cases must not dedup against each other
        dedup = ExactDedup(fail=case.dedup_fails)
        if case.stored:
            dedup.seed("acme", "mem-456", case.content)
        verifier = ScriptedVerifier({case.id: case.grounding} if case.grounding else {})
        validator = Validator(cfg, dedup, verifier, StatedCitationVerifier(EXISTS))
        claim = Claim(
            claim_id=case.id,
            tenant_id="acme",
            user_id="user-123",
            content=case.content,
            memory_type=case.memory_type,
            source=case.source,
            source_turns=case.turns,
            confidence=case.confidence,
        )
        (out[case.id],) = asyncio.run(validator.validate_batch([claim]))
    return out


@pytest.mark.parametrize(
    "case", WORKED_EXAMPLES_TIER_POLICY + WORKED_EXAMPLES_GROUNDING, ids=lambda c: c.id
)
def test_worked_examples(case: Case) -> None:
    result = _run([case])[case.id]
    v = result.validation
    assert v.tier is case.expected, (v.reason, v.checks_failed)
    assert v.approved is (case.expected is Tier.AUTO_APPROVE)
    assert v.reason and v.evidence.claim == case.content


def test_duplicate_reports_the_stored_memory() -> None:
    (case,) = [c for c in WORKED_EXAMPLES_TIER_POLICY if c.id == "block-duplicate"]
    result = _run([case])[case.id]
    assert result.duplicate_of == "mem-456" and result.validation.conflicting_memory_id == "mem-456"
    assert any(f.startswith("duplicate_of: mem-456") for f in result.validation.checks_failed)


def test_unverified_citation_reported() -> None:
    (case,) = [c for c in WORKED_EXAMPLES_TIER_POLICY if c.id == "review-unverified-adr"]
    result = _run([case])[case.id]
    assert [(c.type, c.value, c.verified) for c in result.citations] == [("adr", "ADR-999", False)]
    assert "ADR-999" in result.validation.reason


def test_partial_mvp_is_kept_with_penalty_and_tag() -> None:
    (case,) = [c for c in WORKED_EXAMPLES_GROUNDING if c.id == "grounding-sharpened-plan"]
    result = _run([case])[case.id]
    assert "grounding_partial" in result.tags
    assert result.grounding.adjusted_confidence == pytest.approx(0.62)
    assert result.validation.evidence.metadata["adjusted_confidence"] == pytest.approx(0.62)
    assert result.validation.evidence.source_id == "turn-1"


def test_reentry_model_answer_chat_42_is_not_evidence() -> None:
    """The model's own earlier answer would "support" the claim; it never reaches the
    verifier, so the claim is judged on the corpus alone and blocked (docs/spec.md
    §Provenance and re-entry, the example)."""
    claim = Claim(
        claim_id="q1",
        tenant_id="acme",
        content="X supports null keys",
        source="ai_synthesis",
        source_turns=[
            {"id": "p1#1", "source": "corpus", "text": "X is a constrained mapping."},
            {
                "id": "chat:42",
                "source": "model",
                "text": "(assistant) X supports null keys. citations: [p1#1]",
            },
        ],
    )
    verifier = ScriptedVerifier(default=substring_verifier)
    validator = Validator(GuardsConfig(), ExactDedup(), verifier, None)
    (result,) = asyncio.run(validator.validate_batch([claim]))
    assert [t.id for req in verifier.seen for t in req.turns] == ["p1#1"]
    assert result.validation.tier is Tier.BLOCK
    failed = result.validation.checks_failed
    assert "reentry_rejections: 1 of 2 source turns" in failed
    assert "reentry_rejected: chat:42 (source_not_allowed:model)" in failed
    assert result.validation.reason_code is ReasonCode.NOT_SUPPORTED
    # Control: with the guard opened, the same naive verifier is fooled.
    cfg = GuardsConfig()
    cfg.provenance.allowed_sources.append("model")
    cfg.provenance.reserved_prefixes = []
    cfg.provenance.template_signatures = []
    (fooled,) = asyncio.run(
        Validator(cfg, ExactDedup(), ScriptedVerifier(default=substring_verifier)).validate_batch(
            [claim]
        )
    )
    assert fooled.validation.tier is Tier.AUTO_APPROVE


def test_only_inadmissible_turns_is_not_supported_without_asking_the_verifier() -> None:
    claim = Claim(
        claim_id="q2",
        tenant_id="acme",
        content="X supports null keys",
        source="conversation",
        memory_type="decision",
        source_turns=[{"id": "chat:42", "source": "model", "text": "X supports null keys"}],
    )
    verifier = ScriptedVerifier(default=substring_verifier)
    (result,) = asyncio.run(Validator(GuardsConfig(), None, verifier).validate_batch([claim]))
    assert verifier.seen == []
    assert result.grounding.verdict == "not_supported"
    assert result.validation.tier is Tier.BLOCK  # not approved as "decision in conversation"
    assert result.validation.reason_code is ReasonCode.REENTRY
