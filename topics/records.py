"""Record types of the wire contract: the claim producers publish and what groundwire routes.

Pydantic models are the single source of truth; the JSON Schemas in `schemas/` are
generated from them (`groundwire schemas write`) and checked in so producers in any
language can validate before publishing. A test fails if the checked-in schemas drift.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
)

from groundwire.topics.vocab import (
    CitationSupport,
    CitationType,
    DedupOutcome,
    DlqReason,
    GroundingVerdict,
    HedgeAction,
    HedgeCategory,
    ProducerAuthAction,
    ProducerAuthOutcome,
    ReasonCode,
    ReentryReason,
    ReviewAction,
    ReviewDecision,
    ReviewDenial,
    ReviewLimit,
    ReviewRole,
    Source,
    Tier,
)

ID_MAX = 256
# Identifiers (claim, tenant, user and source-turn ids) are printable text without
# control, zero-width or bidirectional-override characters and without whitespace at
# either end: an id is compared, logged and shown to reviewers, and text that renders
# differently from its bytes (" chat:7", "chat\u200b:7", a right-to-left override) would
# slip past prefix rules and mislead whoever reads it.
# Written with regex escapes (not the characters) so the pattern reads the same in the
# JSON Schema and works in ECMAScript, Python and Rust (pydantic-core) regex engines.
_NOT_ID = (
    r"\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e"
    r"\u2060-\u2064\u2066-\u206f\ufeff"
)
ID_PATTERN = rf"^[^\s{_NOT_ID}](?:[^{_NOT_ID}]*[^\s{_NOT_ID}])?$"
TEXT_FIELD_MAX = 1_024  # subject / predicate / object

__all__ = [
    "ID_MAX",
    "CitationReport",
    "Claim",
    "DedupOutcome",
    "DlqRecord",
    "EvidenceObject",
    "EvidenceSpan",
    "GroundingReport",
    "HedgeReport",
    "ProducerAuthReport",
    "ProvenanceReport",
    "ReasonCode",
    "ReplayNotice",
    "ReviewAuditEvent",
    "ReviewSection",
    "ReviewedResult",
    "RoutedResult",
    "ScreenedClaim",
    "Source",
    "SourceTurn",
    "Tier",
    "ValidationResult",
]


class SourceTurn(BaseModel):
    """One piece of evidence the claim was extracted from (spec: Provenance and re-entry)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str = Field(min_length=1, max_length=ID_MAX, pattern=ID_PATTERN)
    text: str
    # Free-form on purpose: evidence sources (corpus, user, model, ...) are a wider
    # vocabulary than claim sources; the provenance guard decides what may ground. None
    # (absent) means the source is missing, and such a turn never grounds (spec:
    # Provenance and re-entry): it is not read as corpus.
    source: str | None = Field(default=None, max_length=64)
    created_at: datetime | None = None


class Claim(BaseModel):
    """A memory claim as producers publish it (key = tenant_id)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    claim_id: str = Field(min_length=1, max_length=ID_MAX, pattern=ID_PATTERN)
    tenant_id: str = Field(min_length=1, max_length=ID_MAX, pattern=ID_PATTERN)
    # "" = no owner given; otherwise an identifier like the others.
    user_id: str = Field(default="", max_length=ID_MAX, pattern=f"^$|{ID_PATTERN}")
    content: str = Field(min_length=1)
    memory_type: str = Field(default="fact", min_length=1, max_length=64)
    source: Source
    source_turns: list[SourceTurn] = Field(default_factory=list)
    subject: str | None = Field(default=None, max_length=TEXT_FIELD_MAX)
    predicate: str | None = Field(default=None, max_length=TEXT_FIELD_MAX)
    object: str | None = Field(default=None, max_length=TEXT_FIELD_MAX)
    # A number in [0, 1]: strict, so `true` or "0.5" is refused rather than coerced.
    confidence: float = Field(default=1.0, ge=0.0, le=1.0, strict=True)
    created_at: datetime | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    # Producer authentication (spec: Producer authentication): the id of the key that
    # signed the claim, and the signature: HMAC-SHA256, lower-case hex, over the claim's
    # canonical JSON without `signature` (topics/signing.py). Unsigned claims omit both.
    key_id: str | None = Field(default=None, max_length=ID_MAX, pattern=ID_PATTERN)
    signature: str | None = Field(default=None, max_length=256)


class EvidenceObject(BaseModel):
    """Provenance metadata every memory carries (spec: Evidence object and validation result)."""

    claim: str
    capture_time: datetime
    confidence: str  # high | medium | low
    source_id: str | None = None
    validity_horizon: datetime | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class ValidationResult(BaseModel):
    """Write-time validation's complete output (spec: Evidence object and validation result)."""

    tier: Tier
    approved: bool
    reason: str  # for people: the policy's words, with detail (ids, names, numbers)
    reason_code: ReasonCode  # for machines: the same decision as one code
    dedup: DedupOutcome  # the near-duplicate check's outcome, whatever decided the tier
    evidence: EvidenceObject
    checks_passed: list[str] = Field(default_factory=list)
    checks_failed: list[str] = Field(default_factory=list)
    similarity_score: float | None = None
    conflicting_memory_id: str | None = None


class HedgeReport(BaseModel):
    action: HedgeAction = HedgeAction.NONE
    category: HedgeCategory | None = None
    words: list[str] = Field(default_factory=list)


class CitationReport(BaseModel):
    type: CitationType
    value: str
    verified: bool | None = None  # None: not checked (verification disabled)
    reason: str = ""
    # Does the artifact's text say what the claim says (spec: Citations)? None: no text
    # was available (not found, not fetched, an issue, a claim that is only a reference).
    support: CitationSupport | None = None
    support_detail: str = ""  # the check's one-line explanation
    # The artifact's text as the verifier read it (bounded), for the support and phantom
    # checks of the same process; never serialised, so it does not travel on the wire.
    _text: str | None = PrivateAttr(default=None)

    def artifact_text(self) -> str | None:
        """The cited artifact's text, when this process verified it and could read it."""
        return self._text

    def with_artifact_text(self, text: str | None) -> CitationReport:
        """This report, holding the artifact's text for this process (not serialised)."""
        self._text = text
        return self


class EvidenceSpan(BaseModel):
    """An exact substring of one source turn: text == turn.text[start:end]."""

    turn_id: str
    start: int
    end: int
    text: str


class GroundingReport(BaseModel):
    verdict: GroundingVerdict = GroundingVerdict.SKIPPED
    score: float | None = None
    evidence_spans: list[EvidenceSpan] = Field(default_factory=list)
    reasoning: str = ""
    confidence_penalty: float = 0.0
    adjusted_confidence: float | None = None
    verifier: str = ""
    # PARTIAL with rewrite_partial: the content restated to keep only what the evidence
    # supports (the claim's `content` is left as it was).
    rewritten_content: str | None = None


class ProvenanceReport(BaseModel):
    """Which source turns may ground a claim, and why not others (spec: Provenance and re-entry)."""

    eligible_turn_ids: list[str] = Field(default_factory=list)
    rejections: dict[str, ReentryReason] = Field(default_factory=dict)  # turn id -> reason
    # turn id -> what matched, for the rejections that have one: the refused source tag
    # (source_not_allowed), the reserved prefix (reserved_prefix) or the template
    # signature (template_signature).
    rejection_details: dict[str, str] = Field(default_factory=dict)

    @field_validator("rejections", mode="wrap")
    @classmethod
    def _legacy_reasons(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        """A screen worker that predates `rejection_details` (mid rolling upgrade) wrote the
        detail into the reason ("reserved_prefix:chat:"): keep the code, drop the detail.
        Tried only when the value does not validate as it is, so current records pay for
        one function call and no copy."""
        try:
            return handler(value)
        except ValidationError:
            if not isinstance(value, dict):
                raise
            return handler({k: str(v).split(":", 1)[0] for k, v in value.items()})


class RoutedResult(BaseModel):
    """What groundwire writes to approved / review / blocked and to audit."""

    claim: Claim
    validation: ValidationResult
    hedge: HedgeReport = Field(default_factory=HedgeReport)
    citations: list[CitationReport] = Field(default_factory=list)
    provenance: ProvenanceReport = Field(default_factory=ProvenanceReport)
    grounding: GroundingReport = Field(default_factory=GroundingReport)
    phantoms: list[str] = Field(default_factory=list)  # see ScreenedClaim.phantoms
    duplicate_of: str | None = None
    similarity: float | None = None
    # Not a duplicate of a memory, but a near-duplicate of this claim, which is still
    # pending review (tag near_duplicate_of_pending); the claim followed its own tier.
    pending_duplicate_of: str | None = None
    producer_auth: ProducerAuthReport | None = None
    tags: list[str] = Field(default_factory=list)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    routed_at: datetime
    worker: str = ""


class DlqRecord(BaseModel):
    """A record groundwire could not read; `reason` is machine-readable."""

    reason: DlqReason
    detail: str
    topic: str
    partition: int
    offset: int
    key: str | None = None
    raw: str  # the original bytes, decoded with errors="replace", truncated
    # The exact original bytes, base64, when they were not valid UTF-8 or too large, and
    # small enough to carry (else `detail` says where the original is).
    raw_b64: str | None = None
    received_at: datetime


class ProducerAuthReport(BaseModel):
    """Who published the claim, as far as its signature shows (spec: Producer
    authentication). When `action` is downgraded, `claim.source` is ai_synthesis and
    `claimed_source` is what the producer wrote."""

    outcome: ProducerAuthOutcome
    action: ProducerAuthAction = ProducerAuthAction.KEPT
    claimed_source: Source
    key_id: str | None = None


class ScreenedClaim(BaseModel):
    """The stateless stage's output on `claims.screened` (key = tenant_id)."""

    claim: Claim
    hedge: HedgeReport
    citations: list[CitationReport] = Field(default_factory=list)
    provenance: ProvenanceReport = Field(default_factory=ProvenanceReport)
    # Set when the screen stage already ran grounding (settings.grounding_stage="screen");
    # absent, the route stage grounds the claim itself.
    grounding: GroundingReport | None = None
    # Files, fields and parameters the claim names that no admissible source turn and no
    # cited artifact contains (spec: Citations, phantom references).
    phantoms: list[str] = Field(default_factory=list)
    # The producer check of the screen stage (absent: not checked, e.g. a library caller).
    producer_auth: ProducerAuthReport | None = None
    timings_ms: dict[str, float] = Field(default_factory=dict)
    received_at: datetime | None = None


class ReplayNotice(BaseModel):
    """On `audit` (header event=replay): a claim_id published again with the same content.

    No second decision is made and nothing is written to approved / review / blocked; this
    note says when and where the copy arrived and what the first decision was (None when
    the first copy was still being decided)."""

    event: Literal["replay"] = "replay"
    claim: Claim
    earlier_tier: Tier | None = None
    first_origin: str  # topic:partition:offset of the first copy
    origin: str  # topic:partition:offset of this copy
    noted_at: datetime
    worker: str = ""


REVIEW_REASON_MAX = 1_000  # characters of a reviewer's reason


class ReviewSection(BaseModel):
    """A person's decision on a claim the pipeline sent to review (spec: Review queue)."""

    decision: ReviewDecision
    queue_id: str
    reviewer: str  # the reviewer's user id, from their credential (same tenant as the claim)
    role: ReviewRole  # owner, or tenant_admin when the configured admin role acted
    reason: str = Field(default="", max_length=REVIEW_REASON_MAX)  # the reviewer's words
    submitted_at: datetime  # when the claim joined the queue
    decided_at: datetime
    request_id: str  # the HTTP request that decided it (also on the audit event)
    # Approve only: a memory approved meanwhile that this claim nearly duplicates; the
    # claim was then not added to the dedup index (the person's decision still stands).
    duplicate_of: str | None = None


class ReviewedResult(RoutedResult):
    """On `approved` (decision approve) or `blocked` (decision reject): the routed record the
    pipeline flagged, unchanged, plus the person's decision. `validation` stays the
    pipeline's (tier flag_review); `review` says what the person decided and why."""

    review: ReviewSection


class ReviewAuditEvent(BaseModel):
    """On `audit` (header event=review): one action in the review queue, with who did it,
    when, and the request that carried it. Claim content is not repeated here."""

    event: Literal["review"] = "review"
    action: ReviewAction
    tenant_id: str
    actor: str  # user id from the credential; "" for the queue itself (role system)
    role: ReviewRole
    at: datetime
    request_id: str  # HTTP request id, or topic:partition:offset of the review record
    queue_id: str | None = None
    claim_id: str | None = None
    owner: str | None = None  # the claim's user_id
    reason: str = ""  # a reject's reason, or what the event is about in words
    denial: ReviewDenial | None = None  # action denied: why
    limit: ReviewLimit | None = None  # action overflow: which bound
    count: int | None = None  # action view: how many claims were shown
