"""The tier policy: one function turns every detector's report into (tier, reason, checks).

Each outcome carries a `ReasonCode` next to its human-readable reason: the policy knows
which rule decided, so it says so in a closed vocabulary, and metrics count the code
instead of reading the prose. The reasons' wording is for people and may change freely.

Keeping the decision in one pure function (no I/O, no clock) is what lets the worked
examples of docs/spec.md §Tier policy run as a conformance table, and lets an operator
read the whole order in one place. Every check is evaluated and reported (checks_passed /
checks_failed) even when an earlier rule already decided, so an auditor sees all reasons,
not only the first.

Decision order (docs/spec.md §Tier policy):
 1. personal speculation, admitted uncertainty, suggestion  -> block
    (any other blocking hedge: code `speculation`)
 2. duplicate                                               -> block
 3. a cited source turn failed provenance (the auditor rule) -> block
    (`reentry` when no admissible turn is left, else `cited_turn_rejected`; with
    policy.block_on_rejected_turn off, rejected turns are only removed and reported)
 4. grounding NOT_SUPPORTED                                 -> block
 5. a cited artifact contradicts the claim                  -> block
 6. grounding PARTIAL with adjusted confidence < minimum     -> block ("dropped")
 7. technical hedge / approximation                         -> review
 8. dedup failure                                           -> review (fail closed)
    a variant of a memory (near-duplicate but for a negation or a number) -> review
 9. grounding UNKNOWN -> per on_verifier_failure: block | allow_with_flag (tag, go on) |
    queue (default) -> review
10. a citation that was checked and NOT found               -> review (never auto-approves)
11. a verified citation whose artifact does not say it (partial or unrelated) -> review
12. a file, field or parameter the claim names that no source contains -> review
13. verified citation (whose artifact says it, or could not be read), trusted source,
    decision stated in conversation, preference stated by the user, SUPPORTED grounding,
    PARTIAL grounding with approve_partial -> approve. Nothing approves a claim grounding
    refuted (rules 3-6 come first); a PARTIAL claim keeps its tag and its penalty
    whichever rule approves it.
14. otherwise                                               -> review
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
from groundwire.topics.vocab import (
    CitationSupport,
    CitationType,
    DedupOutcome,
    GroundingVerdict,
    HedgeAction,
    HedgeCategory,
    ReasonCode,
    ReentryReason,
    Source,
)

MAX_LISTED_REJECTIONS = 10

_BLOCK_REASONS: dict[HedgeCategory | None, tuple[ReasonCode, str]] = {
    HedgeCategory.PERSONAL_SPECULATION: (
        ReasonCode.PERSONAL_SPECULATION,
        "Contains personal speculation",
    ),
    HedgeCategory.ADMITTED_UNCERTAINTY: (ReasonCode.ADMITTED_UNCERTAINTY, "Admits uncertainty"),
    HedgeCategory.SUGGESTION: (ReasonCode.SUGGESTION, "Ungrounded suggestion"),
}
_SPECULATION = (ReasonCode.SPECULATION, "Contains speculation")

# Members bound to module names: `HedgeAction.BLOCK` is an enum-class attribute lookup
# (~70 ns on 3.11), a module global is not, and the policy compares a dozen per claim.
_HEDGE_BLOCK = HedgeAction.BLOCK
_HEDGE_REVIEW = HedgeAction.REVIEW
_APPROXIMATION = HedgeCategory.APPROXIMATION
_SUPPORTED = GroundingVerdict.SUPPORTED
_PARTIAL = GroundingVerdict.PARTIAL
_NOT_SUPPORTED = GroundingVerdict.NOT_SUPPORTED
_UNKNOWN = GroundingVerdict.UNKNOWN
_DEDUP_SKIPPED = DedupOutcome.SKIPPED
_DEDUP_UNIQUE = DedupOutcome.UNIQUE
_DEDUP_DUPLICATE = DedupOutcome.DUPLICATE
_DEDUP_FAILED = DedupOutcome.FAILED
_DEDUP_VARIANT = DedupOutcome.VARIANT
# tag and check name of a claim that is a near-duplicate of a memory but for a negation or
# a number (docs/dedup.md §Variants)
VARIANT_TAG = "variant_of_memory"
_SUPPORTS = CitationSupport.SUPPORTED
_CONTRADICTS = CitationSupport.CONTRADICTED
# A turn beyond the per-claim limit was never checked: it did not fail provenance.
_UNCHECKED = ReentryReason.TOO_MANY_TURNS
# A claim's source as the plain string the checks and reasons print (`.value` is a
# descriptor call on every access; a dict lookup is not).
_SOURCE_VALUES: dict[Source, str] = {member: member.value for member in Source}
_NO_CITATIONS: tuple[CitationReport, ...] = ()


@dataclass(frozen=True, slots=True)
class PolicyDecision:
    tier: Tier
    reason: str
    reason_code: ReasonCode
    dedup: DedupOutcome = DedupOutcome.SKIPPED
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
    source = _SOURCE_VALUES.get(claim.source) or claim.source.value
    memory_type = claim.memory_type
    policy = cfg.policy
    confidence = claim.confidence
    passed: list[str] = []
    failed: list[str] = []
    tags: list[str] = []
    adjusted = confidence

    # -- evaluate every check ------------------------------------------------------
    action = hedge.action
    if action == _HEDGE_BLOCK:
        failed.append("hedge_words_detected: " + ", ".join(hedge.words))
    elif action == _HEDGE_REVIEW:
        failed.append(f"{hedge.category or 'technical_hedge'}: {', '.join(hedge.words)}")
    else:
        passed.append("no_speculation")

    dedup_outcome = _DEDUP_SKIPPED
    duplicate_of: str | None = None
    if dedup is not None:
        if dedup.failed:
            dedup_outcome = _DEDUP_FAILED
            failed.append(f"dedup_failed: {dedup.error or 'unknown error'}")
            tags.append("dedup_failed")
        elif dedup.is_duplicate:
            dedup_outcome = _DEDUP_DUPLICATE
            duplicate_of = dedup.duplicate_of
            sim = f" similarity={dedup.similarity:.3f}" if dedup.similarity is not None else ""
            failed.append(f"duplicate_of: {duplicate_of}{sim}")
        elif dedup.variant_of is not None:
            dedup_outcome = _DEDUP_VARIANT
            duplicate_of = dedup.variant_of
            sim = f" similarity={dedup.variant_similarity:.3f}" if dedup.variant_similarity else ""
            failed.append(f"{VARIANT_TAG}: {duplicate_of}{sim}")
            tags.append(VARIANT_TAG)
        else:
            dedup_outcome = _DEDUP_UNIQUE
            passed.append("not_duplicate")

    rejections = provenance.rejections
    failed_provenance: list[str] = []
    if rejections:
        failed_provenance = [t for t, why in rejections.items() if why != _UNCHECKED]
        total = len(rejections) + len(provenance.eligible_turn_ids)
        failed.append(f"reentry_rejections: {len(rejections)} of {total} source turns")
        details = provenance.rejection_details
        for turn_id, why in list(rejections.items())[:MAX_LISTED_REJECTIONS]:
            detail = details.get(turn_id)
            shown = f"{why}:{detail}" if detail else f"{why}"  # a StrEnum formats as its value
            failed.append(f"reentry_rejected: {turn_id} ({shown})")
        tags.append("reentry_rejected")
    elif provenance.eligible_turn_ids:
        passed.append("provenance_ok")

    verdict = grounding.verdict
    if verdict == _SUPPORTED:
        passed.append("grounding_supported")
    elif verdict == _PARTIAL:
        adjusted = _adjusted(confidence, grounding)
        failed.append(f"grounding_partial: confidence {confidence:.2f} -> {adjusted:.2f}")
        tags.append("grounding_partial")
    elif verdict == _NOT_SUPPORTED:
        failed.append("grounding_not_supported")
    elif verdict == _UNKNOWN:
        failed.append("grounding_unknown: verifier failed")
        tags.append("grounding_unknown")

    # most claims cite nothing: skip building five empty lists
    refuted: Sequence[CitationReport] = _NO_CITATIONS
    contradicted: Sequence[CitationReport] = _NO_CITATIONS
    unsupported: Sequence[CitationReport] = _NO_CITATIONS
    vouching: Sequence[CitationReport] = _NO_CITATIONS
    if citations:
        verified = [c for c in citations if c.verified is True]
        refuted = [c for c in citations if c.verified is False]
        contradicted = [c for c in verified if c.support == _CONTRADICTS]
        unsupported = [c for c in verified if c.support is not None and c.support != _SUPPORTS]
        vouching = [c for c in verified if c.support is None or c.support == _SUPPORTS]
    for c in citations:
        if c.verified is True:
            passed.append(f"citation_verified: {c.value}")
            if c.support == _SUPPORTS:
                passed.append(f"citation_supports_claim: {c.value}")
            elif c.support == _CONTRADICTS:
                failed.append(f"citation_contradicts_claim: {c.value} ({c.support_detail})")
            elif c.support is not None:
                failed.append(f"citation_unsupported: {c.value} ({c.support})")
        elif c.verified is False:
            failed.append(f"citation_unverified: {c.value} ({c.reason})")
        else:
            failed.append(f"citation_unchecked: {c.value} ({c.reason or 'not verified'})")
    if refuted:
        tags.append("citation_unverified")
    if contradicted:
        tags.append("citation_contradicted")
    elif unsupported:
        tags.append("citation_unsupported")
    phantoms = screened.phantoms
    if phantoms:
        failed.extend(f"phantom_reference: {name}" for name in phantoms[:MAX_LISTED_REJECTIONS])
        tags.append("phantom_reference")

    trusted = source in policy.trusted_sources
    if trusted:
        passed.append("trusted_source: " + source)
    decision_stated = memory_type == "decision" and source in policy.decision_sources
    preference_stated = memory_type == "preference" and source in policy.preference_sources
    if decision_stated:
        passed.append("decision_in_conversation")
    if preference_stated:
        passed.append("preference_stated_by_user")

    def done(tier: Tier, code: ReasonCode, reason: str) -> PolicyDecision:
        return PolicyDecision(
            tier, reason, code, dedup_outcome, passed, failed, tags, round(adjusted, 4)
        )

    # -- decide, in order ------------------------------------------------------------
    if action == _HEDGE_BLOCK:
        return done(Tier.BLOCK, *_BLOCK_REASONS.get(hedge.category, _SPECULATION))
    if dedup_outcome is _DEDUP_DUPLICATE:
        return done(
            Tier.BLOCK, ReasonCode.DUPLICATE, f"Duplicate of existing memory {duplicate_of}"
        )
    no_evidence_left = bool(rejections) and not provenance.eligible_turn_ids
    if failed_provenance and policy.block_on_rejected_turn:
        if no_evidence_left:
            return done(
                Tier.BLOCK,
                ReasonCode.REENTRY,
                "No admissible evidence: every source turn failed provenance",
            )
        first = failed_provenance[0]
        return done(
            Tier.BLOCK,
            ReasonCode.CITED_TURN_REJECTED,
            f"A cited source turn failed provenance: {first} ({rejections[first]})",
        )
    if verdict == _NOT_SUPPORTED:
        if no_evidence_left:
            return done(
                Tier.BLOCK,
                ReasonCode.REENTRY,
                "No admissible evidence: every source turn failed provenance",
            )
        return done(Tier.BLOCK, ReasonCode.NOT_SUPPORTED, "Not supported by its source turns")
    if contradicted:
        return done(
            Tier.BLOCK,
            ReasonCode.CITATION_CONTRADICTED,
            f"Contradicted by the artifact it cites: {contradicted[0].value}",
        )
    min_conf = cfg.grounding.min_confidence_after_penalty
    if verdict == _PARTIAL and adjusted < min_conf:
        return done(
            Tier.BLOCK,
            ReasonCode.LOW_CONFIDENCE,
            f"Partially grounded; confidence {adjusted:.2f} after penalty is below {min_conf:.2f}",
        )
    if action == _HEDGE_REVIEW:
        if hedge.category == _APPROXIMATION:
            code, what = ReasonCode.APPROXIMATION, "approximations"
        else:
            code, what = ReasonCode.TECHNICAL_HEDGE, "technical hedges"
        return done(Tier.FLAG_REVIEW, code, f"Contains {what} - needs verification")
    if dedup_outcome is _DEDUP_FAILED:
        return done(
            Tier.FLAG_REVIEW,
            ReasonCode.DEDUP_FAILED,
            "Dedup check failed - cannot verify uniqueness",
        )
    if dedup_outcome is _DEDUP_VARIANT:
        return done(
            Tier.FLAG_REVIEW,
            ReasonCode.VARIANT_OF_MEMORY,
            f"Differs from memory {duplicate_of} only in a negation, a number, a name, an "
            "opposite word or swapped roles",
        )
    if verdict == _UNKNOWN:
        mode = cfg.grounding.on_verifier_failure
        if mode == "block":
            return done(
                Tier.BLOCK,
                ReasonCode.VERIFIER_FAILED,
                "Grounding verifier failed (on_verifier_failure=block)",
            )
        if mode == "queue":
            return done(
                Tier.FLAG_REVIEW,
                ReasonCode.VERIFIER_FAILED,
                "Grounding verifier failed - queued for review",
            )
    if refuted:
        names = ", ".join(c.value for c in refuted)
        return done(
            Tier.FLAG_REVIEW,
            ReasonCode.CITATION_UNVERIFIED,
            f"Citation detected but not verified: {names}",
        )
    if unsupported:
        names = ", ".join(f"{c.value} ({c.support})" for c in unsupported)
        return done(
            Tier.FLAG_REVIEW,
            ReasonCode.CITATION_UNSUPPORTED,
            f"The cited artifact does not say it: {names}",
        )
    if phantoms:
        return done(
            Tier.FLAG_REVIEW,
            ReasonCode.PHANTOM_REFERENCE,
            "Names what no source contains: " + ", ".join(phantoms[:MAX_LISTED_REJECTIONS]),
        )
    if vouching:
        return done(
            Tier.AUTO_APPROVE,
            ReasonCode.VERIFIED_CITATION,
            f"Has verified citation: {vouching[0].value}",
        )
    if trusted:
        return done(Tier.AUTO_APPROVE, ReasonCode.TRUSTED_SOURCE, f"From trusted source: {source}")
    if decision_stated:
        return done(
            Tier.AUTO_APPROVE, ReasonCode.DECISION_STATED, "Decision stated in conversation"
        )
    if preference_stated:
        return done(Tier.AUTO_APPROVE, ReasonCode.PREFERENCE_STATED, "Preference stated by user")
    if verdict == _SUPPORTED:
        return done(Tier.AUTO_APPROVE, ReasonCode.GROUNDED, "Supported by its source turns")
    if verdict == _PARTIAL:
        if policy.approve_partial:
            return done(
                Tier.AUTO_APPROVE,
                ReasonCode.PARTIAL_GROUNDING,
                "Partially supported by its source turns",
            )
        return done(
            Tier.FLAG_REVIEW,
            ReasonCode.PARTIAL_GROUNDING,
            "Partially grounded - needs verification",
        )
    return done(Tier.FLAG_REVIEW, ReasonCode.UNGROUNDED, "Ungrounded assertion needs verification")


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
    """The ValidationResult with its EvidenceObject (spec: Evidence object and validation
    result; source_id: the first verified citation whose artifact does not deny or miss the
    claim, else the first evidence span's turn)."""
    source_id: str | None = None
    for c in citations:
        if c.verified and (c.support is None or c.support == _SUPPORTS):
            source_id = f"commit:{c.value}" if c.type == CitationType.COMMIT else c.value
            break
    if source_id is None and grounding.evidence_spans:
        source_id = grounding.evidence_spans[0].turn_id
    # Both models are made by their validators from a dict: `Model(**fields)` is the same
    # validation behind a Python `__init__` (~11,000 of ~35,000 instructions a claim for
    # the two), with the same result and errors.
    evidence: EvidenceObject = EvidenceObject.__pydantic_validator__.validate_python(
        {
            "claim": claim.content,
            "capture_time": claim.created_at or now,
            "confidence": _CONFIDENCE_LABEL[decision.tier],
            "source_id": source_id,
            "metadata": {
                "source": claim.source.value,
                "memory_type": claim.memory_type,
                "claim_confidence": claim.confidence,
                "adjusted_confidence": decision.adjusted_confidence,
                "tags": list(decision.tags),
            },
        }
    )
    # the memory it duplicates, or the one it is a variant of (says otherwise in few words)
    other: str | None = None
    similarity: float | None = None
    if dedup is not None and not dedup.failed:
        if dedup.is_duplicate:
            other, similarity = dedup.duplicate_of, dedup.similarity
        elif dedup.variant_of is not None:
            other, similarity = dedup.variant_of, dedup.variant_similarity
    return ValidationResult.__pydantic_validator__.validate_python(  # type: ignore[no-any-return]
        {
            "tier": decision.tier,
            "approved": decision.approved,
            "reason": decision.reason,
            "reason_code": decision.reason_code,
            "dedup": decision.dedup,
            "evidence": evidence,
            "checks_passed": list(decision.checks_passed),
            "checks_failed": list(decision.checks_failed),
            "similarity_score": similarity,
            "conflicting_memory_id": other,
        }
    )
