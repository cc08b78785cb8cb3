"""Label values: every one that reaches Prometheus comes from here.

The closed vocabularies are the enums of `topics/vocab.py`, and the record fields that
carry them are typed with those enums, so a routed result can only hold known values: a
label is the member's value, and each tuple below is derived from its enum (a unit test
fails when a member has no label). Nothing is recovered from prose: the tier policy emits
its `ReasonCode`, the provenance guard its `ReentryReason`, the validation its
`DedupOutcome`.

Only values that still arrive as plain strings from callers (stage names, citation
lookup sources, cache operations) are mapped with `one_of`, onto a fixed tuple with an
`other` bucket, so a new or hostile string can never create a series. No label carries a
tenant id or claim text: cardinality is what takes a Prometheus server down, and such
values would also leak data into a system with weaker access control.
"""

from __future__ import annotations

import re
from enum import StrEnum

from groundwire.topics import vocab
from groundwire.topics.vocab import (
    CitationType,
    ConsistencyAction,
    ConsistencySignal,
    ConsistencyVerdict,
    DedupOutcome,
    DlqReason,
    GroundingVerdict,
    HedgeCategory,
    MemoryChange,
    ProducerAuthAction,
    ProducerAuthOutcome,
    ReasonCode,
    ReentryReason,
    ReviewAction,
    ReviewDecision,
    ReviewDenial,
    ReviewLimit,
    Tier,
)

OTHER = "other"
_MAX_INPUT = 512  # longer inputs are truncated before normalising; labels are short


def values(enum: type[StrEnum], *, without: tuple[StrEnum, ...] = ()) -> tuple[str, ...]:
    """The label values of `enum`: its members' values, in declaration order."""
    return tuple(member.value for member in enum if member not in without)


TIERS: tuple[str, ...] = values(Tier)
REASON_CODES: tuple[str, ...] = values(ReasonCode)
GROUNDING_VERDICTS: tuple[str, ...] = values(GroundingVerdict)
# A claim whose dedup did not run (disabled) is not counted: the fail-closed share is
# failed / (unique + duplicate + failed) over the checks that ran.
DEDUP_NOT_COUNTED: tuple[DedupOutcome, ...] = (DedupOutcome.SKIPPED,)
DEDUP_RESULTS: tuple[str, ...] = values(DedupOutcome, without=DEDUP_NOT_COUNTED)
# A scored answer's supported claims are not counted among its unsupported ones.
NOT_COUNTED: dict[type[StrEnum], tuple[StrEnum, ...]] = {
    DedupOutcome: DEDUP_NOT_COUNTED,
    vocab.AnswerClaimVerdict: (vocab.AnswerClaimVerdict.SUPPORTED,),
}
CITATION_TYPES: tuple[str, ...] = values(CitationType)
CITATION_VERIFIED: tuple[str, ...] = ("true", "false", "unchecked")
REENTRY_REASONS: tuple[str, ...] = values(ReentryReason)
# Guard 3, read-time faithfulness (metrics/faithfulness.py)
RISK_LEVELS: tuple[str, ...] = values(vocab.RiskLevel)
CLAIM_KINDS: tuple[str, ...] = values(vocab.ClaimKind)
UNSUPPORTED_VERDICTS: tuple[str, ...] = values(
    vocab.AnswerClaimVerdict, without=NOT_COUNTED[vocab.AnswerClaimVerdict]
)
UNCITED_FINDINGS: tuple[str, ...] = values(vocab.UncitedClass)
ANSWER_ACTIONS: tuple[str, ...] = values(vocab.AnswerAction)
DLQ_REASONS: tuple[str, ...] = values(DlqReason)
HEDGE_CATEGORIES: tuple[str, ...] = values(HedgeCategory)
REVIEW_ACTIONS: tuple[str, ...] = values(ReviewAction)
REVIEW_DECISIONS: tuple[str, ...] = values(ReviewDecision)
REVIEW_LIMITS: tuple[str, ...] = values(ReviewLimit)
REVIEW_DENIALS: tuple[str, ...] = values(ReviewDenial)
PRODUCER_AUTH_OUTCOMES: tuple[str, ...] = values(ProducerAuthOutcome)
PRODUCER_AUTH_ACTIONS: tuple[str, ...] = values(ProducerAuthAction)
MEMORY_CHANGES: tuple[str, ...] = values(MemoryChange)
CONSISTENCY_SIGNALS: tuple[str, ...] = values(ConsistencySignal)
CONSISTENCY_VERDICTS: tuple[str, ...] = values(ConsistencyVerdict)
CONSISTENCY_ACTIONS: tuple[str, ...] = values(ConsistencyAction)
# What the memory stage did with a command (a plain string from the stage, not a wire field).
COMMAND_RESULTS: tuple[str, ...] = ("applied", "stale", "noop", OTHER)

# Stage names are plain strings from the runner and the stages (not a wire vocabulary).
STAGES: tuple[str, ...] = (
    "screen",
    "route",
    "memory",
    "answers",
    "dedup",
    "grounding",
    "produce",
    OTHER,
)

# Which label tuple each metric-labelled enum maps onto (what the unit test checks).
LABELS_BY_ENUM: dict[type[StrEnum], tuple[str, ...]] = {
    Tier: TIERS,
    ReasonCode: REASON_CODES,
    GroundingVerdict: GROUNDING_VERDICTS,
    DedupOutcome: DEDUP_RESULTS,
    CitationType: CITATION_TYPES,
    ReentryReason: REENTRY_REASONS,
    vocab.RiskLevel: RISK_LEVELS,
    vocab.ClaimKind: CLAIM_KINDS,
    vocab.AnswerClaimVerdict: UNSUPPORTED_VERDICTS,
    vocab.UncitedClass: UNCITED_FINDINGS,
    vocab.AnswerAction: ANSWER_ACTIONS,
    DlqReason: DLQ_REASONS,
    HedgeCategory: HEDGE_CATEGORIES,
    ReviewAction: REVIEW_ACTIONS,
    ReviewDecision: REVIEW_DECISIONS,
    ReviewLimit: REVIEW_LIMITS,
    ReviewDenial: REVIEW_DENIALS,
    ProducerAuthOutcome: PRODUCER_AUTH_OUTCOMES,
    ProducerAuthAction: PRODUCER_AUTH_ACTIONS,
    MemoryChange: MEMORY_CHANGES,
    ConsistencySignal: CONSISTENCY_SIGNALS,
    ConsistencyVerdict: CONSISTENCY_VERDICTS,
    ConsistencyAction: CONSISTENCY_ACTIONS,
}


def _snake(text: str) -> str:
    """Lower-case, separators collapsed to single underscores, truncated."""
    return re.sub(r"[\s_\-:;,./]+", "_", text[:_MAX_INPUT].lower()).strip("_")


def one_of(value: object, allowed: tuple[str, ...], default: str = OTHER) -> str:
    """`value` normalised to snake case if it is in `allowed`, else `default`.

    For labels whose values are plain strings from callers; enum-typed values are
    labelled with their `.value` and need no mapping."""
    if value is None:
        return default
    snake = _snake(str(value))
    return snake if snake in allowed else default


def citation_verified(value: bool | None) -> str:
    if value is None:
        return "unchecked"
    return "true" if value else "false"
