"""The tier policy: one function turns every detector's report into (tier, reason, checks).

Keeping the decision in one pure function (no I/O, no clock) is what lets the seeds'
worked examples run as a conformance table, and lets an operator read the whole order in
one place. Every check is evaluated and reported (checks_passed / checks_failed) even when
an earlier rule already decided, so an auditor sees all reasons, not only the first.

Decision order (DESIGN.md, seeds 000/002/004):
 1. personal speculation, admitted uncertainty, suggestion  -> block
 2. duplicate                                               -> block
 3. re-entry: rejected turns never ground (the verifier never saw them; reported)
 4. grounding NOT_SUPPORTED                                 -> block
    (a claim whose turns ALL failed provenance is not_supported, decided by the validator)
 5. grounding PARTIAL with adjusted confidence < minimum     -> block ("dropped")
 6. technical hedge / approximation                         -> review
 7. dedup failure                                           -> review (fail closed)
 8. grounding UNKNOWN -> per on_verifier_failure: block | allow_with_flag (tag, go on) |
    queue (default) -> review
 9. a citation that was checked and NOT found               -> review (never auto-approves)
10. verified citation, trusted source, decision stated in conversation, preference stated
    by the user, SUPPORTED grounding (PARTIAL only with approve_partial) -> approve
11. otherwise                                               -> review
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from groundwire.guards.config import GuardsConfig
from groundwire.guards.protocols import DedupResult
from groundwire.topics.records import (
    CitationReport,
    Claim,
    EvidenceObject,
    GroundingReport,
    ScreenedClaim,
    Tier,
    ValidationResult,
)

MAX_LISTED_REJECTIONS = 10

_BLOCK_REASONS = {
    "personal_speculation": "Contains personal speculation",
    "admitted_uncertainty": "Admits uncertainty",
    "suggestion": "Ungrounded suggestion",
}


@dataclass(frozen=True, slots=True)
class PolicyDecision:
    tier: Tier
    reason: str
    checks_passed: list[str] = field(default_factory=list)
    checks_failed: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    adjusted_confidence: float = 1.0

    @property
    def approved(self) -> bool:
        return self.tier is Tier.AUTO_APPROVE


def _adjusted(confidence: float, grounding: GroundingReport) -> float:
    if grounding.adjusted_confidence is not None:
        return grounding.adjusted_confidence
    return max(0.0, confidence - grounding.confidence_penalty)


def determine_tier(
    screened: ScreenedClaim,
    *,
    grounding: GroundingReport | None = None,
    dedup: DedupResult | None = None,
    cfg: GuardsConfig | None = None,
) -> PolicyDecision:
    """Decide the tier of a screened claim.

    `grounding=None` means: the report the screened record carries, else SKIPPED.
    `dedup=None` means dedup did not run (disabled), not a failure.
    """
    cfg = cfg or GuardsConfig()
    grounding = grounding or screened.grounding or GroundingReport()
    claim = screened.claim
    hedge = screened.hedge
    provenance = screened.provenance
    citations = screened.citations
    source = claim.source.value
    memory_type = claim.memory_type
    confidence = claim.confidence
    passed: list[str] = []
    failed: list[str] = []
    tags: list[str] = []
    adjusted = confidence

    # -- evaluate every check ------------------------------------------------------
    words = ", ".join(hedge.words)
    if hedge.action == "block":
        failed.append(f"hedge_words_detected: {words}")
    elif hedge.action == "review":
        failed.append(f"{hedge.category or 'technical_hedge'}: {words}")
    else:
        passed.append("no_speculation")

    if dedup is not None:
        if dedup.failed:
            failed.append(f"dedup_failed: {dedup.error or 'unknown error'}")
            tags.append("dedup_failed")
        elif dedup.is_duplicate:
            sim = f" similarity={dedup.similarity:.3f}" if dedup.similarity is not None else ""
            failed.append(f"duplicate_of: {dedup.duplicate_of}{sim}")
        else:
            passed.append("not_duplicate")

    rejections = provenance.rejections
    if rejections:
        total = len(rejections) + len(provenance.eligible_turn_ids)
        failed.append(f"reentry_rejections: {len(rejections)} of {total} source turns")
        for turn_id, why in list(rejections.items())[:MAX_LISTED_REJECTIONS]:
            failed.append(f"reentry_rejected: {turn_id} ({why})")
        tags.append("reentry_rejected")
    elif provenance.eligible_turn_ids:
        passed.append("provenance_ok")

    verdict = grounding.verdict
    if verdict == "supported":
        passed.append("grounding_supported")
    elif verdict == "partial":
        adjusted = _adjusted(confidence, grounding)
        failed.append(f"grounding_partial: confidence {confidence:.2f} -> {adjusted:.2f}")
        tags.append("grounding_partial")
    elif verdict == "not_supported":
        failed.append("grounding_not_supported")
    elif verdict == "unknown":
        failed.append("grounding_unknown: verifier failed")
        tags.append("grounding_unknown")

    verified = [c for c in citations if c.verified is True]
    refuted = [c for c in citations if c.verified is False]
    for c in citations:
        if c.verified is True:
            passed.append(f"citation_verified: {c.value}")
        elif c.verified is False:
            failed.append(f"citation_unverified: {c.value} ({c.reason})")
        else:
            failed.append(f"citation_unchecked: {c.value} ({c.reason or 'not verified'})")
    if refuted:
        tags.append("citation_unverified")

    trusted = source in cfg.policy.trusted_sources
    if trusted:
        passed.append(f"trusted_source: {source}")
    decision_stated = memory_type == "decision" and source in cfg.policy.decision_sources
    preference_stated = memory_type == "preference" and source in cfg.policy.preference_sources
    if decision_stated:
        passed.append("decision_in_conversation")
    if preference_stated:
        passed.append("preference_stated_by_user")

    def done(tier: Tier, reason: str) -> PolicyDecision:
        return PolicyDecision(tier, reason, passed, failed, tags, round(adjusted, 4))

    # -- decide, in order ------------------------------------------------------------
    if hedge.action == "block":
        return done(Tier.BLOCK, _BLOCK_REASONS.get(hedge.category or "", "Contains speculation"))
    if dedup is not None and dedup.is_duplicate and not dedup.failed:
        return done(Tier.BLOCK, f"Duplicate of existing memory {dedup.duplicate_of}")
    if verdict == "not_supported":
        if rejections and not provenance.eligible_turn_ids:
            return done(Tier.BLOCK, "No admissible evidence: every source turn failed provenance")
        return done(Tier.BLOCK, "Not supported by its source turns")
    min_conf = cfg.grounding.min_confidence_after_penalty
    if verdict == "partial" and adjusted < min_conf:
        return done(
            Tier.BLOCK,
            f"Partially grounded; confidence {adjusted:.2f} after penalty is below {min_conf:.2f}",
        )
    if hedge.action == "review":
        what = "approximations" if hedge.category == "approximation" else "technical hedges"
        return done(Tier.FLAG_REVIEW, f"Contains {what} - needs verification")
    if dedup is not None and dedup.failed:
        return done(Tier.FLAG_REVIEW, "Dedup check failed - cannot verify uniqueness")
    if verdict == "unknown":
        mode = cfg.grounding.on_verifier_failure
        if mode == "block":
            return done(Tier.BLOCK, "Grounding verifier failed (on_verifier_failure=block)")
        if mode == "queue":
            return done(Tier.FLAG_REVIEW, "Grounding verifier failed - queued for review")
    if refuted:
        names = ", ".join(c.value for c in refuted)
        return done(Tier.FLAG_REVIEW, f"Citation detected but not verified: {names}")
    if verified:
        return done(Tier.AUTO_APPROVE, f"Has verified citation: {verified[0].value}")
    if trusted:
        return done(Tier.AUTO_APPROVE, f"From trusted source: {source}")
    if decision_stated:
        return done(Tier.AUTO_APPROVE, "Decision stated in conversation")
    if preference_stated:
        return done(Tier.AUTO_APPROVE, "Preference stated by user")
    if verdict == "supported":
        return done(Tier.AUTO_APPROVE, "Supported by its source turns")
    if verdict == "partial":
        if cfg.policy.approve_partial:
            return done(Tier.AUTO_APPROVE, "Partially supported by its source turns")
        return done(Tier.FLAG_REVIEW, "Partially grounded - needs verification")
    return done(Tier.FLAG_REVIEW, "Ungrounded assertion needs verification")


_CONFIDENCE_LABEL = {Tier.AUTO_APPROVE: "high", Tier.FLAG_REVIEW: "medium", Tier.BLOCK: "low"}


def build_validation(
    claim: Claim,
    decision: PolicyDecision,
    *,
    citations: Sequence[CitationReport],
    grounding: GroundingReport,
    dedup: DedupResult | None,
    now: datetime,
) -> ValidationResult:
    """The seed's ValidationResult with its EvidenceObject (source_id: the first verified
    citation, else the first evidence span's turn)."""
    source_id: str | None = None
    for c in citations:
        if c.verified:
            source_id = f"commit:{c.value}" if c.type == "commit" else c.value
            break
    if source_id is None and grounding.evidence_spans:
        source_id = grounding.evidence_spans[0].turn_id
    evidence = EvidenceObject(
        claim=claim.content,
        capture_time=claim.created_at or now,
        confidence=_CONFIDENCE_LABEL[decision.tier],
        source_id=source_id,
        metadata={
            "source": claim.source.value,
            "memory_type": claim.memory_type,
            "claim_confidence": claim.confidence,
            "adjusted_confidence": decision.adjusted_confidence,
            "tags": list(decision.tags),
        },
    )
    duplicate = dedup is not None and dedup.is_duplicate and not dedup.failed
    return ValidationResult(
        tier=decision.tier,
        approved=decision.approved,
        reason=decision.reason,
        evidence=evidence,
        checks_passed=list(decision.checks_passed),
        checks_failed=list(decision.checks_failed),
        similarity_score=dedup.similarity if dedup is not None and duplicate else None,
        conflicting_memory_id=dedup.duplicate_of if duplicate else None,
    )
