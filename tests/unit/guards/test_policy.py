"""determine_tier on its own: the decision order and the checks it reports."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GuardsConfig
from groundwire.guards.policy import PolicyDecision, determine_tier
from groundwire.guards.protocols import DedupResult
from groundwire.topics.records import (
    CitationReport,
    Claim,
    GroundingReport,
    HedgeReport,
    ProvenanceReport,
    ScreenedClaim,
    Tier,
)
from groundwire.topics.vocab import DedupOutcome, ReasonCode


def decide(
    *,
    hedge: HedgeReport,
    source: str,
    memory_type: str,
    confidence: float = 1.0,
    citations: list[CitationReport] | None = None,
    provenance: ProvenanceReport | None = None,
    grounding: GroundingReport | None = None,
    dedup: DedupResult | None = None,
    cfg: GuardsConfig | None = None,
) -> PolicyDecision:
    """The policy on a screened claim carrying exactly these detector reports."""
    claim = Claim(
        claim_id="c",
        tenant_id="t",
        content="a claim",
        source=source,
        memory_type=memory_type,
        confidence=confidence,
    )  # type: ignore[arg-type]
    screened = ScreenedClaim(
        claim=claim,
        hedge=hedge,
        citations=citations or [],
        provenance=provenance or ProvenanceReport(),
    )
    return determine_tier(screened, grounding=grounding, dedup=dedup, cfg=cfg)


NONE = HedgeReport(action="none")
ADR_OK = CitationReport(type="adr", value="ADR-3", verified=True, reason="exists")
ADR_BAD = CitationReport(type="adr", value="ADR-9", verified=False, reason="ADR not found")


def test_speculation_beats_everything() -> None:
    d = decide(
        hedge=HedgeReport(action="block", category="personal_speculation", words=["I think"]),
        source="user",
        memory_type="fact",
        citations=[ADR_OK],
        grounding=GroundingReport(verdict="supported"),
        dedup=DedupResult(True, "m1", 0.99),
    )
    assert d.tier is Tier.BLOCK and d.reason == "Contains personal speculation"
    assert d.reason_code is ReasonCode.PERSONAL_SPECULATION
    assert "citation_verified: ADR-3" in d.checks_passed  # all checks still reported
    assert any(f.startswith("duplicate_of: m1") for f in d.checks_failed)
    assert d.dedup is DedupOutcome.DUPLICATE  # reported although speculation decided


def test_duplicate_beats_verified_citation() -> None:
    d = decide(
        hedge=NONE,
        source="ai_synthesis",
        memory_type="fact",
        citations=[ADR_OK],
        dedup=DedupResult(True, "m1", 0.95),
    )
    assert d.tier is Tier.BLOCK and "m1" in d.reason
    assert d.reason_code is ReasonCode.DUPLICATE


def test_not_supported_beats_trusted_source() -> None:
    d = decide(
        hedge=NONE,
        source="user",
        memory_type="fact",
        grounding=GroundingReport(verdict="not_supported"),
    )
    assert d.tier is Tier.BLOCK


def test_refuted_citation_never_approves_even_from_trusted_source() -> None:
    d = decide(hedge=NONE, source="documentation", memory_type="fact", citations=[ADR_BAD, ADR_OK])
    assert d.tier is Tier.FLAG_REVIEW and "ADR-9" in d.reason
    assert d.reason_code is ReasonCode.CITATION_UNVERIFIED


def test_unchecked_citation_neither_approves_nor_blocks_approval() -> None:
    unchecked = CitationReport(type="issue", value="#5", verified=None, reason="no tracker")
    ai = decide(hedge=NONE, source="ai_synthesis", memory_type="fact", citations=[unchecked])
    user = decide(hedge=NONE, source="user", memory_type="fact", citations=[unchecked])
    assert (ai.tier, user.tier) == (Tier.FLAG_REVIEW, Tier.AUTO_APPROVE)


def test_partial_penalty_threshold_and_option() -> None:
    """PARTIAL above the minimum is kept (stored, tagged, penalty applied): the default;
    with approve_partial off it goes to review; under the minimum it is dropped."""
    partial = GroundingReport(verdict="partial", confidence_penalty=0.3)
    kept = decide(
        hedge=NONE, source="ai_synthesis", memory_type="fact", confidence=0.7, grounding=partial
    )
    assert (kept.tier, kept.adjusted_confidence) == (Tier.AUTO_APPROVE, 0.4)
    assert "grounding_partial" in kept.tags
    dropped = decide(
        hedge=NONE, source="ai_synthesis", memory_type="fact", confidence=0.5, grounding=partial
    )
    assert dropped.tier is Tier.BLOCK and "below 0.30" in dropped.reason
    assert (kept.reason_code, dropped.reason_code) == (
        ReasonCode.PARTIAL_GROUNDING,
        ReasonCode.LOW_CONFIDENCE,
    )
    cfg = GuardsConfig()
    cfg.policy.approve_partial = False
    review = decide(
        hedge=NONE,
        source="ai_synthesis",
        memory_type="fact",
        confidence=0.7,
        grounding=partial,
        cfg=cfg,
    )
    assert (review.tier, review.adjusted_confidence) == (Tier.FLAG_REVIEW, 0.4)
    cfg.grounding.min_confidence_after_penalty = 0.1
    cfg.policy.approve_partial = True
    assert (
        decide(
            hedge=NONE,
            source="ai_synthesis",
            memory_type="fact",
            confidence=0.5,
            grounding=partial,
            cfg=cfg,
        ).tier
        is Tier.AUTO_APPROVE
    )


APPROVERS = [
    ("user", "fact"),  # trusted source
    ("documentation", "fact"),
    ("conversation", "decision"),  # decision stated in conversation
    ("chat", "preference"),  # preference stated by the user
]


@pytest.mark.parametrize(("source", "memory_type"), APPROVERS)
def test_no_rule_approves_what_grounding_refutes(source: str, memory_type: str) -> None:
    """NOT_SUPPORTED blocks whatever vouches for the claim: its source, its type, a
    verified citation."""
    d = decide(
        hedge=NONE,
        source=source,
        memory_type=memory_type,
        citations=[ADR_OK],
        grounding=GroundingReport(verdict="not_supported"),
    )
    assert (d.tier, d.reason_code) == (Tier.BLOCK, ReasonCode.NOT_SUPPORTED)


@pytest.mark.parametrize(("source", "memory_type"), APPROVERS)
def test_partial_approved_by_another_rule_keeps_tag_and_penalty(
    source: str, memory_type: str
) -> None:
    cfg = GuardsConfig()
    cfg.policy.approve_partial = False  # the other rule approves, not PARTIAL itself
    d = decide(
        hedge=NONE,
        source=source,
        memory_type=memory_type,
        confidence=0.82,
        grounding=GroundingReport(verdict="partial", confidence_penalty=0.2),
        cfg=cfg,
    )
    assert d.tier is Tier.AUTO_APPROVE
    assert d.reason_code is not ReasonCode.PARTIAL_GROUNDING
    assert "grounding_partial" in d.tags and d.adjusted_confidence == 0.62
    assert "grounding_partial: confidence 0.82 -> 0.62" in d.checks_failed


def test_auditor_rule_rejects_a_claim_citing_a_turn_that_failed_provenance() -> None:
    prov = ProvenanceReport(
        eligible_turn_ids=["p1"],
        rejections={"chat:42": "source_not_allowed"},
        rejection_details={"chat:42": "model"},
    )
    d = decide(
        hedge=NONE,
        source="documentation",
        memory_type="fact",
        citations=[ADR_OK],
        provenance=prov,
        grounding=GroundingReport(verdict="supported"),
    )
    assert (d.tier, d.reason_code) == (Tier.BLOCK, ReasonCode.CITED_TURN_REJECTED)
    assert "chat:42" in d.reason and "reentry_rejected" in d.tags
    every = ProvenanceReport(rejections={"chat:42": "reserved_prefix"})
    d = decide(hedge=NONE, source="user", memory_type="fact", provenance=every)
    assert (d.tier, d.reason_code) == (Tier.BLOCK, ReasonCode.REENTRY)
    cfg = GuardsConfig()
    cfg.policy.block_on_rejected_turn = False  # removed and reported only
    d = decide(
        hedge=NONE,
        source="documentation",
        memory_type="fact",
        provenance=prov,
        grounding=GroundingReport(verdict="supported"),
        cfg=cfg,
    )
    assert d.tier is Tier.AUTO_APPROVE and "reentry_rejected" in d.tags


def test_a_turn_beyond_the_limit_was_not_checked_so_it_did_not_fail() -> None:
    prov = ProvenanceReport(eligible_turn_ids=["p1"], rejections={"t300": "too_many_turns"})
    d = decide(
        hedge=NONE,
        source="ai_synthesis",
        memory_type="fact",
        provenance=prov,
        grounding=GroundingReport(verdict="supported"),
    )
    assert d.tier is Tier.AUTO_APPROVE


def _cited(support: str | None) -> CitationReport:
    return CitationReport(type="adr", value="ADR-3", verified=True, support=support)


def test_a_cited_artifact_must_say_it() -> None:
    contradicted = decide(
        hedge=NONE, source="documentation", memory_type="fact", citations=[_cited("contradicted")]
    )
    assert (contradicted.tier, contradicted.reason_code) == (
        Tier.BLOCK,
        ReasonCode.CITATION_CONTRADICTED,
    )
    assert "citation_contradicted" in contradicted.tags
    for support in ("unrelated", "partial"):
        d = decide(hedge=NONE, source="user", memory_type="fact", citations=[_cited(support)])
        assert (d.tier, d.reason_code) == (Tier.FLAG_REVIEW, ReasonCode.CITATION_UNSUPPORTED)
        assert f"citation_unsupported: ADR-3 ({support})" in d.checks_failed
    for support in ("supported", None):  # said, or nothing to read: existence counts
        d = decide(
            hedge=NONE, source="ai_synthesis", memory_type="fact", citations=[_cited(support)]
        )
        assert (d.tier, d.reason_code) == (Tier.AUTO_APPROVE, ReasonCode.VERIFIED_CITATION)


def test_phantom_references_are_never_approved() -> None:
    claim = Claim(
        claim_id="c", tenant_id="t", content="x lives in src/x.py", source="documentation"
    )
    screened = ScreenedClaim(claim=claim, hedge=NONE, phantoms=["src/x.py"])
    d = determine_tier(screened, grounding=GroundingReport(verdict="supported"))
    assert (d.tier, d.reason_code) == (Tier.FLAG_REVIEW, ReasonCode.PHANTOM_REFERENCE)
    assert "phantom_reference: src/x.py" in d.checks_failed and "phantom_reference" in d.tags


def test_verifier_adjusted_confidence_wins_over_own_arithmetic() -> None:
    g = GroundingReport(verdict="partial", confidence_penalty=0.1, adjusted_confidence=0.2)
    d = decide(hedge=NONE, source="user", memory_type="fact", confidence=0.9, grounding=g)
    assert d.tier is Tier.BLOCK and d.adjusted_confidence == 0.2


def test_reentry_rejections_listed_and_counted() -> None:
    prov = ProvenanceReport(
        eligible_turn_ids=["k1"],
        rejections={f"chat:{i}": "reserved_prefix" for i in range(11)}
        | {"late": "created_after_claim"},
        rejection_details={f"chat:{i}": "chat:" for i in range(11)},
    )
    d = decide(hedge=NONE, source="ai_synthesis", memory_type="fact", provenance=prov)
    assert "reentry_rejections: 12 of 13 source turns" in d.checks_failed
    assert sum(f.startswith("reentry_rejected: ") for f in d.checks_failed) == 10  # bounded
    # the check text shows the detail next to the code, as it always has
    assert "reentry_rejected: chat:0 (reserved_prefix:chat:)" in d.checks_failed
    assert "reentry_rejected" in d.tags
    only_late = ProvenanceReport(rejections={"late": "created_after_claim"})
    d = decide(hedge=NONE, source="ai_synthesis", memory_type="fact", provenance=only_late)
    assert "reentry_rejected: late (created_after_claim)" in d.checks_failed


def test_every_outcome_has_its_code_and_dedup_outcome() -> None:
    """One code per decided outcome (the full table of branches is in
    tests/unit/metrics/test_labels.py, which drives every ReasonCode)."""
    trusted = decide(hedge=NONE, source="documentation", memory_type="fact")
    assert (trusted.reason_code, trusted.dedup) == (ReasonCode.TRUSTED_SOURCE, DedupOutcome.SKIPPED)
    failed = decide(
        hedge=NONE,
        source="documentation",
        memory_type="fact",
        dedup=DedupResult(False, failed=True, error="timeout"),
    )
    assert (failed.tier, failed.reason_code, failed.dedup) == (
        Tier.FLAG_REVIEW,
        ReasonCode.DEDUP_FAILED,
        DedupOutcome.FAILED,
    )
    unique = decide(hedge=NONE, source="ai_synthesis", memory_type="fact", dedup=DedupResult(False))
    assert (unique.reason_code, unique.dedup) == (ReasonCode.UNGROUNDED, DedupOutcome.UNIQUE)


def test_decision_and_preference_sources() -> None:
    def tier(source: str, memory_type: str) -> Tier:
        return decide(hedge=NONE, source=source, memory_type=memory_type).tier

    assert tier("conversation", "decision") is Tier.AUTO_APPROVE
    assert tier("chat", "decision") is Tier.FLAG_REVIEW
    assert tier("chat", "preference") is Tier.AUTO_APPROVE
    assert tier("ai_synthesis", "preference") is Tier.FLAG_REVIEW
