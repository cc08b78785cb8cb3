"""A flagged memory as a review-queue item, and reading a reviewer's decision back.

The review service queues `RoutedResult`s of tier flag_review from the `review` topic
(streams/review/feed.py), so a contradiction reaches a person as one: the memory's
content as the claim, reason code `contradicts_memory`, and in the reason what it
contradicts. The queue is idempotent by claim_id, so each flag gets its own id,
`<memory id>:contradiction:<version>`; `metadata.memory_id` names the memory. What the
reviewer sees of the *other* memory follows the queue's rule for near-duplicates: its
text only when it is the same owner's, else only its id.

Approving keeps the memory (the flag clears, the link stays so the same contradiction is
not flagged again); rejecting retracts it. The memory stage reads both decisions from
the records the review relay writes (`approved`, `blocked`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from groundwire.topics.memory import MEMORY_ID_PATTERN, MemoryRecord
from groundwire.topics.records import (
    Claim,
    EvidenceObject,
    ReviewedResult,
    RoutedResult,
    ValidationResult,
)
from groundwire.topics.vocab import DedupOutcome, ReasonCode, ReviewDecision, Tier

__all__ = ["contradiction_review", "review_target"]

_SHOWN_CHARS = 300


def _describe(other: MemoryRecord, owner: str) -> str:
    what = f"{other.memory_id}"
    if other.user_id == owner:
        text = other.content[:_SHOWN_CHARS]
        what += f' ("{text}", since {other.valid_from.date().isoformat()})'
    return what


def contradiction_review(
    memory: MemoryRecord, others: Sequence[MemoryRecord], now: datetime, worker: str = ""
) -> RoutedResult:
    """The review-queue item of one newly flagged memory."""
    described = "; ".join(_describe(o, memory.user_id) for o in others) or "another memory"
    reason = (
        f"Contradicts {described}: the store cannot tell which holds, so a person decides "
        "(approve keeps this memory, reject removes it)"
    )
    claim = Claim(
        claim_id=f"{memory.memory_id}:contradiction:{memory.version}",
        tenant_id=memory.tenant_id,
        user_id=memory.user_id,
        content=memory.content,
        memory_type=memory.memory_type,
        source=memory.source,
        subject=memory.subject or None,
        predicate=memory.predicate or None,
        object=memory.object or None,
        confidence=memory.confidence,
        created_at=memory.created_at,
        metadata={
            "memory_id": memory.memory_id,
            "memory_version": memory.version,
            "claim_id": memory.claim_id,
            "contradicts_with": list(memory.contradicts_with),
        },
    )
    validation = ValidationResult(
        tier=Tier.FLAG_REVIEW,
        approved=False,
        reason=reason,
        reason_code=ReasonCode.CONTRADICTS_MEMORY,
        dedup=DedupOutcome.SKIPPED,
        evidence=EvidenceObject(
            claim=memory.content,
            capture_time=memory.valid_from,
            confidence="medium",
            source_id=memory.evidence.source_id,
            metadata={"memory_id": memory.memory_id, "source": memory.source.value},
        ),
        checks_failed=[f"contradicts_memory: {o.memory_id}" for o in others],
    )
    return RoutedResult(
        claim=claim,
        validation=validation,
        tags=["contradiction"],
        routed_at=now,
        worker=worker,
    )


def review_target(result: RoutedResult) -> tuple[str, ReviewDecision] | None:
    """(memory id, decision) when `result` is a reviewer's decision on a flagged memory,
    else None. Only the consistency scan's own reason code counts: a producer cannot
    make a claim of theirs act on a memory by naming it in metadata."""
    if not isinstance(result, ReviewedResult):
        return None
    if result.validation.reason_code is not ReasonCode.CONTRADICTS_MEMORY:
        return None
    target = (
        result.claim.metadata.get("memory_id") if isinstance(result.claim.metadata, dict) else None
    )
    if not isinstance(target, str):
        return None
    import re

    if re.fullmatch(MEMORY_ID_PATTERN[1:-1], target) is None:
        return None
    if not result.claim.claim_id.startswith(f"{target}:contradiction:"):
        return None
    return target, result.review.decision
