"""The one vocabulary of groundwire: every closed set of values a record or a metric uses.

Wire fields are typed with these enums, so the JSON Schemas in `schemas/` list the allowed
values and producers in other languages can check them; the guards decide in these terms
and `metrics/` maps them to label values without reading any prose. A new value added
here fails a unit test until it has a metric label and a schema entry.
"""

from __future__ import annotations

from enum import StrEnum


class Source(StrEnum):
    """Where a claim came from, as its producer states it."""

    USER = "user"
    DOCUMENTATION = "documentation"
    ADR = "adr"
    COMMIT = "commit"
    MANUAL = "manual"
    CONVERSATION = "conversation"
    CHAT = "chat"
    AI_SYNTHESIS = "ai_synthesis"
    MODEL = "model"
    SYSTEM = "system"


class Tier(StrEnum):
    """Where a claim is routed: auto-approved into memory, to human review, or blocked."""

    AUTO_APPROVE = "auto_approve"
    FLAG_REVIEW = "flag_review"
    BLOCK = "block"


class HedgeAction(StrEnum):
    """What the hedge detector asks the policy to do with a claim."""

    BLOCK = "block"  # speculation, admitted uncertainty or a suggestion: never stored
    REVIEW = "review"  # a technical hedge or an approximation: a human checks it
    NONE = "none"  # no hedging found (or the detector is disabled)


class HedgeCategory(StrEnum):
    """The kind of hedging that decided the hedge action."""

    PERSONAL_SPECULATION = "personal_speculation"
    ADMITTED_UNCERTAINTY = "admitted_uncertainty"
    SUGGESTION = "suggestion"
    TECHNICAL_HEDGE = "technical_hedge"
    APPROXIMATION = "approximation"


class CitationType(StrEnum):
    """What a citation detected in a claim points at."""

    ADR = "adr"
    COMMIT = "commit"
    URL = "url"
    ISSUE = "issue"


class CitationSupport(StrEnum):
    """Does a cited artifact (an ADR's text, a commit's message, a page's body) say what the
    claim says? Absent when the artifact's text was not available to check."""

    SUPPORTED = "supported"  # it says it: the citation counts as support
    PARTIAL = "partial"  # it holds the claim's core, not the rest: not support enough
    UNRELATED = "unrelated"  # it does not say it
    CONTRADICTED = "contradicted"  # it says the opposite (an antonym, a negation, a swap)


class GroundingVerdict(StrEnum):
    """Does the claim's source say it? SKIPPED: grounding did not apply to this claim."""

    SUPPORTED = "supported"
    PARTIAL = "partial"
    NOT_SUPPORTED = "not_supported"
    UNKNOWN = "unknown"
    SKIPPED = "skipped"


class ReasonCode(StrEnum):
    """Why the tier policy (guards/policy.py `determine_tier`) routed a claim where it did.

    One code per outcome, in the policy's decision order; the policy emits it with its
    human-readable reason, and metrics count the code, never the prose.
    """

    PERSONAL_SPECULATION = "personal_speculation"  # block: the author speculates
    ADMITTED_UNCERTAINTY = "admitted_uncertainty"  # block: the author admits not knowing
    SUGGESTION = "suggestion"  # block: a suggestion, not a statement of fact
    SPECULATION = "speculation"  # block: a blocking hedge that names no block category
    DUPLICATE = "duplicate"  # block: a near-duplicate of a stored memory
    REENTRY = "reentry"  # block: every source turn failed the re-entry guard, no evidence left
    CITED_TURN_REJECTED = "cited_turn_rejected"  # block: a cited source turn failed provenance
    NOT_SUPPORTED = "not_supported"  # block: grounding found the source turns do not say it
    CITATION_CONTRADICTED = "citation_contradicted"  # block: a cited artifact says the opposite
    LOW_CONFIDENCE = "low_confidence"  # block: partial, confidence after penalty below minimum
    TECHNICAL_HEDGE = "technical_hedge"  # review: technical hedging needs verification
    APPROXIMATION = "approximation"  # review: an approximation needs verification
    DEDUP_FAILED = "dedup_failed"  # review: dedup failed, uniqueness unknown (fail closed)
    # review: a near-duplicate of a memory that differs from it in a negation or a number
    VARIANT_OF_MEMORY = "variant_of_memory"
    VERIFIER_FAILED = "verifier_failed"  # block or review (on_verifier_failure): verdict UNKNOWN
    CITATION_UNVERIFIED = "citation_unverified"  # review: a checked citation was not found
    CITATION_UNSUPPORTED = "citation_unsupported"  # review: a cited artifact does not say it
    PHANTOM_REFERENCE = "phantom_reference"  # review: names a file/field no source contains
    VERIFIED_CITATION = "verified_citation"  # approve: it cites something that was verified
    TRUSTED_SOURCE = "trusted_source"  # approve: the claim's source is a trusted one
    DECISION_STATED = "decision_stated"  # approve: a decision stated in conversation
    PREFERENCE_STATED = "preference_stated"  # approve: a preference stated by the user
    GROUNDED = "grounded"  # approve: grounding found it SUPPORTED by its source turns
    PARTIAL_GROUNDING = "partial_grounding"  # approve with approve_partial, else review
    UNGROUNDED = "ungrounded"  # review: nothing grounds or vouches for the claim
    # Not the tier policy's: the review queue's feed (streams/review/feed.py) blocks a
    # flagged claim that arrives when its owner's queue or the whole queue is full.
    REVIEW_QUEUE_FULL = "review_queue_full"  # block: the review queue had no room
    # Not the tier policy's: the consistency scan (docs/spec.md §Store-time consistency)
    # sends a stored memory that contradicts another one back to review.
    CONTRADICTS_MEMORY = "contradicts_memory"  # review: a stored memory contradicts another


class DedupOutcome(StrEnum):
    """What the near-duplicate check said about a claim."""

    UNIQUE = "unique"  # no stored memory is a near-duplicate
    DUPLICATE = "duplicate"  # a near-duplicate of a stored memory
    FAILED = "failed"  # the check itself failed (index unreachable): fail closed to review
    VARIANT = "variant"  # near-duplicate of a memory but for a negation or a number: review
    SKIPPED = "skipped"  # dedup did not run (disabled or no index configured)


class ReentryReason(StrEnum):
    """Why the provenance (re-entry) guard refused a source turn as evidence."""

    SOURCE_NOT_ALLOWED = "source_not_allowed"  # its source tag is not allow-listed
    SOURCE_MISSING = "source_missing"  # it has no source tag (or an empty one)
    RESERVED_PREFIX = "reserved_prefix"  # its id has a reserved prefix (chat:, gen:, ...)
    TEMPLATE_SIGNATURE = "template_signature"  # its text carries model-template residue
    CREATED_AFTER_CLAIM = "created_after_claim"  # it was written after the claim
    TOO_MANY_TURNS = "too_many_turns"  # beyond the per-claim turn limit (bounded work)


class DlqReason(StrEnum):
    """Why a record went to the dead-letter topic instead of being processed."""

    EMPTY = "empty"  # the record has no value
    TOO_LARGE = "too_large"  # the record or its content is above the configured limit
    INVALID_UTF8 = "invalid_utf8"  # the bytes are not UTF-8
    NOT_JSON = "not_json"  # the text is not JSON
    NOT_OBJECT = "not_object"  # the JSON is not an object
    INVALID_CLAIM = "invalid_claim"  # the object is not a valid Claim
    INVALID_SCREENED = "invalid_screened"  # a claims.screened record is not a ScreenedClaim
    PROCESSING_FAILED = "processing_failed"  # processing this one record kept failing (poison)
    TOO_DEEP = "too_deep"  # the JSON nests deeper than the configured limit
    TOO_MANY_TURNS = "too_many_turns"  # more source turns than the configured limit
    OUTPUT_TOO_LARGE = "output_too_large"  # the routed record would exceed the message size
    CLAIM_ID_REUSED = "claim_id_reused"  # a claim_id already decided, sent with other content
    INVALID_REVIEW = "invalid_review"  # a review record is not a flag_review RoutedResult
    # the memory stage cannot read a record of approved / blocked / memories.commands
    INVALID_MEMORY_INPUT = "invalid_memory_input"
    # producer_auth.mode=strict: a claim of a trusted source whose producer is not
    # authenticated for it (no, a wrong or an unknown key's signature; a key not allowed it)
    UNAUTHENTICATED_SOURCE = "unauthenticated_source"
    INVALID_ANSWER = "invalid_answer"  # an `answers` record is not a valid Answer


class ProducerAuthOutcome(StrEnum):
    """What checking a claim's producer signature found (docs/spec.md §Producer
    authentication)."""

    VERIFIED = "verified"  # a valid signature by a key that may claim this source
    UNSIGNED = "unsigned"  # no signature
    BAD_SIGNATURE = "bad_signature"  # a signature that does not verify (wrong, or edited)
    UNKNOWN_KEY = "unknown_key"  # signed with a key id the registry does not know
    SOURCE_NOT_PERMITTED = "source_not_permitted"  # a valid signature; the key may not claim
    # this source


class ProducerAuthAction(StrEnum):
    """What happened to the claim because of its producer check."""

    KEPT = "kept"  # screened with the source it claims
    DOWNGRADED = "downgraded"  # a trusted source not authenticated: screened as ai_synthesis
    REFUSED = "refused"  # the same in strict mode: sent to the dlq (unauthenticated_source)


class ReviewAction(StrEnum):
    """What happened in the review queue; every action is one event on `audit`."""

    ENQUEUE = "enqueue"  # a flagged claim joined its owner's queue
    VIEW = "view"  # a reviewer listed or opened pending claims
    APPROVE = "approve"  # a reviewer approved a claim: it goes to `approved`
    REJECT = "reject"  # a reviewer rejected a claim: it goes to `blocked`
    OVERFLOW = "overflow"  # the queue was full: the claim went to `blocked`
    DENIED = "denied"  # an attempt the queue refused (see ReviewDenial)


class ReviewDecision(StrEnum):
    """A reviewer's decision on a pending claim."""

    APPROVE = "approve"
    REJECT = "reject"


class ReviewRole(StrEnum):
    """In what capacity an actor acted on the review queue."""

    OWNER = "owner"  # the claim's user (tenant_id, user_id)
    TENANT_ADMIN = "tenant_admin"  # the optional, configured admin role of the same tenant
    SYSTEM = "system"  # the queue itself (enqueue, overflow)


class ReviewLimit(StrEnum):
    """Which bound of the review queue a claim hit."""

    OWNER = "owner"  # the owner already has review.max_per_owner pending claims
    TOTAL = "total"  # the queue already holds review.max_total pending claims


class ReviewDenial(StrEnum):
    """Why the review service refused a request (audited; answered without the detail)."""

    NOT_FOUND = "not_found"  # no such pending claim in the caller's tenant
    NOT_OWNER = "not_owner"  # the claim exists but belongs to someone else
    UNAUTHENTICATED = "unauthenticated"  # no valid credential
    FORBIDDEN = "forbidden"  # a credential, but the request failed CSRF/origin checks
    RATE_LIMITED = "rate_limited"  # the credential exceeded its request rate


# -- read-time faithfulness (docs/spec.md §Read-time faithfulness) ----------------------


class ClaimKind(StrEnum):
    """What one piece of an answer does. Only factual claims are checked against the
    context; every other kind is excluded, with the reason in the output."""

    FACTUAL = "factual"  # states something about the world, the user or the system
    ADVICE = "advice"  # tells the reader what to do ("Try restarting it", "You should ...")
    OPINION = "opinion"  # a judgement or taste ("I love ...", "That is a great choice")
    QUESTION = "question"  # asks instead of asserting
    GREETING = "greeting"  # pleasantries ("Hi!", "Hope this helps", "Thanks")
    META = "meta"  # about the answer itself or a refusal ("Here is what I found:")


class AnswerClaimVerdict(StrEnum):
    """Does the context the answer was given support one of its factual claims?"""

    SUPPORTED = "supported"  # an admissible source says it
    UNSUPPORTED = "unsupported"  # no admissible source says it, or it adds a specific
    CONTRADICTED = "contradicted"  # an admissible source, or the source it cites, says otherwise
    REJECTED = "rejected"  # it cites a source that failed provenance (the auditor rule)
    UNKNOWN = "unknown"  # the verifier failed and no fallback scored it: counted unsupported


class RiskLevel(StrEnum):
    """How risky an answer is, from its unsupported claims and its faithfulness."""

    NONE = "none"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


class AnswerPolicy(StrEnum):
    """What a tenant wants done with a risky answer."""

    WARN = "warn"  # annotate each unsupported claim with why
    REGENERATE = "regenerate"  # ask for a new answer (callback or webhook), then block
    BLOCK = "block"  # answer with the configured refusal instead


class AnswerAction(StrEnum):
    """What the policy did to an answer."""

    NONE = "none"  # below the policy's trigger: the answer stands as written
    WARNED = "warned"  # returned with its unsupported claims annotated
    REGENERATED = "regenerated"  # replaced by a regenerated answer that scored better
    BLOCKED = "blocked"  # replaced by the refusal text


class AnswerCitationStatus(StrEnum):
    """The outcome of checking one citation inside an answer."""

    VERIFIED = "verified"  # resolves to an admissible source that says the claim
    PHANTOM = "phantom"  # names no source of the context
    REJECTED_SOURCE = "rejected_source"  # its source failed provenance
    SNIPPET_MISMATCH = "snippet_mismatch"  # a quoted snippet is not in the cited source
    LINES_INVALID = "lines_invalid"  # line numbers the source does not have or that miss the quote
    UNSUPPORTED = "unsupported"  # the cited source does not say it (partially or at all)
    CONTRADICTED = "contradicted"  # the cited source says the opposite


class UncitedClass(StrEnum):
    """Where an uncited factual claim could have come from."""

    LIKELY_SOURCED = "likely_sourced"  # a source of the context says it: the citation was missed
    OTHER_SCOPE = "other_scope"  # only a source of another scope says it
    KNOWLEDGE_GAP = "knowledge_gap"  # nothing known says it


class AnswerWarningType(StrEnum):
    """A warning returned with a scored answer."""

    UNSUPPORTED_CLAIM = "unsupported_claim"
    PHANTOM_SOURCE = "phantom_source"
    REJECTED_SOURCE = "rejected_source"
    SNIPPET_MISMATCH = "snippet_mismatch"
    LINES_INVALID = "lines_invalid"
    CITATION_UNSUPPORTED = "citation_unsupported"
    CITATION_CONTRADICTED = "citation_contradicted"
    UNVERIFIED_FIELDS = "unverified_fields"
    UNCITED_CLAIM = "uncited_claim"
    VERIFIER_DEGRADED = "verifier_degraded"
    NOT_CHECKED = "not_checked"


class MemoryChange(StrEnum):
    """What one new version of a memory on the `memories` topic did to it (docs/spec.md
    §Store-time consistency)."""

    CREATED = "created"  # an approved claim became a memory
    SUPERSEDED = "superseded"  # a newer memory replaced it (valid_to, superseded_by set)
    MERGED = "merged"  # it is the canonical memory of an equivalent cluster
    FLAGGED = "flagged"  # it contradicts other memories (contradicts_with): review
    CONFIRMED = "confirmed"  # a reviewer kept a flagged memory
    UNFLAGGED = "unflagged"  # every memory it contradicted is gone
    RETRACTED = "retracted"  # removed (right to be forgotten, or rejected in review)


class ConsistencySignal(StrEnum):
    """Why the consistency scan put memories into one suspect cluster."""

    STRUCTURAL = "structural"  # same subject and predicate
    SEMANTIC = "semantic"  # very similar text, different subject or predicate
    TEMPORAL = "temporal"  # same subject and predicate, valid_from far apart


class ConsistencyVerdict(StrEnum):
    """The judge's classification of one suspect cluster."""

    EQUIVALENT = "equivalent"  # the same fact in other words: merge
    TEMPORAL_EVOLUTION = "temporal_evolution"  # the fact changed: the latest supersedes
    CONTRADICTION = "contradiction"  # cannot be resolved automatically: human review
    DISTINCT = "distinct"  # a false positive: no action
    UNKNOWN = "unknown"  # the judge failed (LLM down): no action, judged again next scan


class ConsistencyAction(StrEnum):
    """What the consistency scan (or write-time supersession) does about a cluster."""

    MERGE = "merge"
    SUPERSEDE = "supersede"
    FLAG = "flag"
