"""Conformance table: the worked examples of docs/spec.md §Tier policy and §Grounding,
through the real detectors, the real policy and the in-process Validator, with the
default settings. Where an example depends on something outside the guards (does ADR-003
exist? what does it say? what did the grounding verifier answer?), the test feeds exactly
what the example states, through the protocol doubles of groundwire.guards.testing; the
rows marked `real_verifier` ask the offline lexical verifier itself."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest

from groundwire.guards.config import GuardsConfig
from groundwire.guards.grounding import build_verifier
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
# What the cited artifacts say, for the rows about a citation's support (the others
# state existence only, as the examples do).
ARTIFACTS = {
    "ADR-012": "# ADR-012: memory store\n\nStatus: accepted. We use PostgreSQL for memory "
    "storage. Pixeltable was considered and rejected.",
    "b4d9e2f1a7c3": "Fix the retry loop: back off exponentially on timeout",
}
EXISTS |= {"ADR-012": True, "b4d9e2f1a7c3": True}


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
    real_verifier: bool = False  # ground with the default offline verifier, not a stated one
    code: ReasonCode | None = None  # the reason code the example implies, where it matters


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
    Case("review-api-may-errors", "The API may return errors under load", Tier.FLAG_REVIEW),
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
        Tier.AUTO_APPROVE,  # kept: stored with tag grounding_partial at 0.82 - 0.20 = 0.62
        turns=[{"id": "turn-1", "source": "corpus", "text": MVP_TURN}],
        confidence=0.82,
        grounding=GroundingReport(
            verdict="partial",
            confidence_penalty=0.20,
            evidence_spans=[EvidenceSpan(turn_id="turn-1", start=27, end=60, text=MVP_TURN[27:60])],
        ),
        code=ReasonCode.PARTIAL_GROUNDING,
    ),
    Case(
        "grounding-sharpened-plan-offline-verifier",
        "Georgian will deliver the Inbox3 MVP by April 30 with 95% confidence",
        Tier.AUTO_APPROVE,
        turns=[{"id": "turn-1", "source": "corpus", "text": MVP_TURN}],
        confidence=0.82,
        real_verifier=True,
        code=ReasonCode.PARTIAL_GROUNDING,
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
        "grounding-invented-employer-offline-verifier",
        "Georgian works as a software developer at Google",
        Tier.BLOCK,
        turns=GEORGIAN_TURNS,
        confidence=0.85,
        real_verifier=True,
        code=ReasonCode.NOT_SUPPORTED,
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

VENDOR = [{"id": "turn-1", "source": "corpus", "text": "We decided to reject the vendor contract."}]
# docs/spec.md §Tier policy, worked examples "a source that contradicts the claim": no
# approval rule approves what grounding refutes, and a cited artifact must say it.
WORKED_EXAMPLES_CONTRADICTION = [
    Case(
        "contradiction-decision-antonym",
        "We decided to approve the vendor contract",
        Tier.BLOCK,
        source="conversation",
        memory_type="decision",
        turns=VENDOR,
        real_verifier=True,
        code=ReasonCode.NOT_SUPPORTED,
    ),
    Case(
        "contradiction-trusted-source-antonym",
        "Bob likes the new dashboard",
        Tier.BLOCK,
        source="user",
        turns=[{"id": "turn-1", "source": "corpus", "text": "Bob dislikes the new dashboard."}],
        real_verifier=True,
        code=ReasonCode.NOT_SUPPORTED,
    ),
    Case(
        "contradiction-negation",
        "The feature flag will not be enabled",
        Tier.BLOCK,
        source="conversation",
        memory_type="decision",
        turns=[{"id": "t", "source": "corpus", "text": "The feature flag will be enabled."}],
        real_verifier=True,
        code=ReasonCode.NOT_SUPPORTED,
    ),
    Case(
        "contradiction-preference-is-grounded",
        "Georgian prefers detailed explanations",
        Tier.BLOCK,
        source="chat",
        memory_type="preference",
        turns=[{"id": "t", "source": "corpus", "text": "Please keep your answers short."}],
        real_verifier=True,
        code=ReasonCode.NOT_SUPPORTED,
    ),
    Case(
        "contradiction-partial-trusted-keeps-tag-and-penalty",
        "Georgian will deliver the Inbox3 MVP by April 30 with 95% confidence",
        Tier.AUTO_APPROVE,
        source="user",
        turns=[{"id": "turn-1", "source": "corpus", "text": MVP_TURN}],
        confidence=0.82,
        real_verifier=True,
        code=ReasonCode.TRUSTED_SOURCE,
    ),
    Case(
        "citation-contradicted-by-its-adr",
        "Per ADR-012, we use MongoDB for memory storage",
        Tier.BLOCK,
        code=ReasonCode.CITATION_CONTRADICTED,
    ),
    Case(
        "citation-contradicted-even-as-a-decision",
        "Per ADR-012, we use Pixeltable for memory storage",
        Tier.BLOCK,
        source="conversation",
        memory_type="decision",
        code=ReasonCode.CITATION_CONTRADICTED,
    ),
    Case(
        "citation-supported-by-its-adr",
        "Per ADR-012, we use PostgreSQL for memory storage",
        Tier.AUTO_APPROVE,
        code=ReasonCode.VERIFIED_CITATION,
    ),
    Case(
        "citation-unrelated-to-its-adr",
        "Per ADR-012, the cache is written in Rust",
        Tier.FLAG_REVIEW,
        code=ReasonCode.CITATION_UNSUPPORTED,
    ),
    Case(
        "citation-commit-says-it",
        "Commit b4d9e2f1a7c3 fixed the retry loop",
        Tier.AUTO_APPROVE,
        code=ReasonCode.VERIFIED_CITATION,
    ),
    Case(
        "phantom-file-path",
        "The retry logic lives in src/worker/retry_policy.py",
        Tier.FLAG_REVIEW,
        source="user",
        turns=[
            {"id": "t", "source": "corpus", "text": "The retry logic is in src/worker/retry.py."}
        ],
        real_verifier=True,
        code=ReasonCode.PHANTOM_REFERENCE,
    ),
    Case(
        "phantom-field-and-flag",
        "Set max_retries and pass --timeout to the worker",
        Tier.FLAG_REVIEW,
        source="documentation",
        turns=[
            {
                "id": "t",
                "source": "corpus",
                "text": "Set the retry count and pass a timeout to the worker.",
            }
        ],
        real_verifier=True,
        code=ReasonCode.PHANTOM_REFERENCE,
    ),
]


def _run(cases: list[Case], cfg: GuardsConfig | None = None) -> dict[str, RoutedResult]:
    cfg = cfg or GuardsConfig()
    out: dict[str, RoutedResult] = {}
    for case in cases:  # one validator per case: cases must not dedup against each other
        dedup = ExactDedup(fail=case.dedup_fails)
        if case.stored:
            dedup.seed("acme", "mem-456", case.content)
        if case.real_verifier:
            verifier = build_verifier(cfg.grounding)
        else:
            verifier = ScriptedVerifier({case.id: case.grounding} if case.grounding else {})
        citations = StatedCitationVerifier(EXISTS, ARTIFACTS)
        validator = Validator(cfg, dedup, verifier, citations)
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
    "case",
    WORKED_EXAMPLES_TIER_POLICY + WORKED_EXAMPLES_GROUNDING + WORKED_EXAMPLES_CONTRADICTION,
    ids=lambda c: c.id,
)
def test_worked_examples(case: Case) -> None:
    result = _run([case])[case.id]
    v = result.validation
    assert v.tier is case.expected, (v.reason, v.checks_failed, result.grounding.reasoning)
    assert v.approved is (case.expected is Tier.AUTO_APPROVE)
    assert v.reason and v.evidence.claim == case.content
    if case.code is not None:
        assert v.reason_code is case.code, v.reason


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


@pytest.mark.parametrize(
    "case_id", ["grounding-sharpened-plan", "grounding-sharpened-plan-offline-verifier"]
)
def test_partial_mvp_is_kept_with_penalty_tag_and_rewrite(case_id: str) -> None:
    """docs/spec.md §Grounding, the sharpened plan: PARTIAL, penalty 0.20, 0.82 -> 0.62,
    stored with tag grounding_partial; the claim restated to what the source says is
    `rewritten_content`, the original content is kept."""
    (case,) = [c for c in WORKED_EXAMPLES_GROUNDING if c.id == case_id]
    result = _run([case])[case.id]
    assert result.grounding.verdict == "partial"
    assert result.grounding.confidence_penalty == pytest.approx(0.20)
    assert "grounding_partial" in result.tags
    assert result.grounding.adjusted_confidence == pytest.approx(0.62)
    assert result.validation.evidence.metadata["adjusted_confidence"] == pytest.approx(0.62)
    assert result.validation.evidence.metadata["tags"] == ["grounding_partial"]
    assert result.validation.evidence.source_id == "turn-1"
    assert "grounding_partial: confidence 0.82 -> 0.62" in result.validation.checks_failed
    assert result.claim.content == case.content
    if case.real_verifier:
        assert result.grounding.rewritten_content == (
            "Georgian expects to deliver the MVP by end of April"
        )


def test_partial_goes_to_review_one_setting_away() -> None:
    """policy.approve_partial=false: the choice docs/spec.md §Tier policy describes for
    deployments that want a person to confirm every partially grounded claim."""
    cfg = GuardsConfig()
    cfg.policy.approve_partial = False
    (case,) = [c for c in WORKED_EXAMPLES_GROUNDING if c.id == "grounding-sharpened-plan"]
    result = _run([case], cfg)[case.id]
    assert result.validation.tier is Tier.FLAG_REVIEW
    assert result.validation.reason_code is ReasonCode.PARTIAL_GROUNDING
    assert result.grounding.adjusted_confidence == pytest.approx(0.62)


def test_preferences_skip_grounding_one_setting_away() -> None:
    """grounding.skip_for_types=["preference"]: the contradicted preference is approved
    again as stated by the user, unchecked (why it is not the default)."""
    cfg = GuardsConfig()
    cfg.grounding.skip_for_types = ["preference"]
    (case,) = [
        c for c in WORKED_EXAMPLES_CONTRADICTION if c.id == "contradiction-preference-is-grounded"
    ]
    result = _run([case], cfg)[case.id]
    assert result.grounding.verdict == "skipped"
    assert result.validation.tier is Tier.AUTO_APPROVE


def test_a_contradicting_artifact_is_named_in_the_checks() -> None:
    (case,) = [
        c for c in WORKED_EXAMPLES_CONTRADICTION if c.id == "citation-contradicted-by-its-adr"
    ]
    result = _run([case])[case.id]
    (citation,) = result.citations
    assert (citation.verified, citation.support) == (True, "contradicted")
    assert "MongoDB" in citation.support_detail and "PostgreSQL" in citation.support_detail
    assert "citation_contradicted" in result.tags
    assert any(
        f.startswith("citation_contradicts_claim: ADR-012") for f in result.validation.checks_failed
    )
    assert result.validation.evidence.source_id is None  # a denying artifact is no source


def test_phantom_references_are_listed_and_tagged() -> None:
    (case,) = [c for c in WORKED_EXAMPLES_CONTRADICTION if c.id == "phantom-field-and-flag"]
    result = _run([case])[case.id]
    assert result.phantoms == ["max_retries", "--timeout"]
    assert "phantom_reference" in result.tags
    assert "phantom_reference: max_retries" in result.validation.checks_failed


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
    # The auditor rule: it cites a turn that fails provenance, so it is rejected whatever
    # the passage says; the passage alone does not support it either.
    assert result.validation.reason_code is ReasonCode.CITED_TURN_REJECTED
    assert "chat:42" in result.validation.reason
    assert result.grounding.verdict == "not_supported"
    # With the auditor rule off, the inadmissible turn is only removed: still blocked,
    # now because the passage does not say it.
    lenient = GuardsConfig()
    lenient.policy.block_on_rejected_turn = False
    (judged,) = asyncio.run(
        Validator(
            lenient, ExactDedup(), ScriptedVerifier(default=substring_verifier)
        ).validate_batch([claim])
    )
    assert (judged.validation.tier, judged.validation.reason_code) == (
        Tier.BLOCK,
        ReasonCode.NOT_SUPPORTED,
    )
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
