"""Memories and the changes made to them, as pure functions on `MemoryRecord`s.

Every function returns new versions (version + 1, what changed, when, why) and never
touches storage: the memory stage (streams/memory/stage.py) reads the records, calls
these, and writes what they return. So the rules of docs/spec.md §Store-time
consistency (write-time supersession, merge, supersede, flag, confirm, retract) are
tested here without Kafka or Redis, and the scan plans with the same code the stage
applies.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from itertools import pairwise

from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.guards.consistency.extract import (
    extract,
    object_key,
    parse_valid_from,
    predicate_key,
    subject_key,
)
from groundwire.topics.memory import (
    MAX_LINKS,
    MAX_MEMBERS,
    MAX_SPAN_CHARS,
    MAX_SPANS,
    MemoryEvidence,
    MemoryRecord,
    memory_id,
)
from groundwire.topics.records import EvidenceSpan, RoutedResult
from groundwire.topics.vocab import MemoryChange

__all__ = [
    "confirm",
    "flag",
    "is_stateful",
    "merge",
    "new_memory",
    "sp_key",
    "supersede_chain",
    "supersede_on_write",
    "unlink",
]


def is_stateful(predicate: str, cfg: ConsistencyConfig) -> bool:
    """predicate_is_stateful: the latest value replaces the earlier ones."""
    key = predicate_key(predicate)
    return bool(key) and key in {predicate_key(p) for p in cfg.stateful_predicates}


def sp_key(memory: MemoryRecord) -> str | None:
    """The (subject, predicate) a memory is grouped by; None without both."""
    s, p = subject_key(memory.subject), predicate_key(memory.predicate)
    return f"{s}\x1f{p}" if s and p else None


def new_memory(
    routed: RoutedResult, cause: str, now: datetime, cfg: ConsistencyConfig
) -> MemoryRecord:
    """The memory an approved claim becomes (version 1). Content is the grounding's
    rewrite when there is one (the stored memory of the sharpened-plan example),
    confidence the adjusted one, evidence the grounding's spans."""
    claim = routed.claim
    grounding = routed.grounding
    content = grounding.rewritten_content or claim.content
    triple = extract(
        content,
        claim.subject,
        claim.predicate,
        claim.object,
        user_id=claim.user_id,
        max_chars=cfg.max_text_chars,
    )
    confidence = grounding.adjusted_confidence
    if confidence is None:
        confidence = claim.confidence
    access = claim.metadata.get("access_count") if isinstance(claim.metadata, dict) else None
    return MemoryRecord(
        memory_id=memory_id(claim.tenant_id, claim.claim_id),
        tenant_id=claim.tenant_id,
        user_id=claim.user_id,
        claim_id=claim.claim_id,
        version=1,
        change=MemoryChange.CREATED,
        content=content,
        memory_type=claim.memory_type,
        source=claim.source,
        subject=triple.subject[:1024],
        predicate=triple.predicate[:1024],
        object=triple.object[:1024],
        spo_from=triple.source,  # type: ignore[arg-type]
        valid_from=parse_valid_from(claim.metadata, claim.created_at, routed.routed_at),
        confidence=min(1.0, max(0.0, float(confidence))),
        evidence=MemoryEvidence(
            source_id=routed.validation.evidence.source_id or None,
            claim_ids=[claim.claim_id],
            spans=_union_spans([grounding.evidence_spans]),
        ),
        access_count=access if isinstance(access, int) and access >= 0 else 0,
        tags=list(routed.tags),
        created_at=now,
        updated_at=now,
        cause=cause,
    )


def _next(
    memory: MemoryRecord, change: MemoryChange, now: datetime, cause: str, **update: object
) -> MemoryRecord:
    return memory.model_copy(
        update={
            "version": memory.version + 1,
            "change": change,
            "updated_at": now,
            "cause": cause,
            **update,
        }
    )


def _superseded(memory: MemoryRecord, by: MemoryRecord, now: datetime, cause: str) -> MemoryRecord:
    return _next(
        memory,
        MemoryChange.SUPERSEDED,
        now,
        cause,
        superseded_by=by.memory_id,
        valid_to=by.valid_from,
        flagged=False,
    )


def supersede_on_write(
    new: MemoryRecord,
    actives: Sequence[MemoryRecord],
    cfg: ConsistencyConfig,
    now: datetime,
    cause: str,
) -> tuple[MemoryRecord, list[MemoryRecord]]:
    """Write-time supersession for a stateful predicate: an active memory of the same
    subject and predicate with another object, whose valid_from is more than
    `temporal_drift_days` earlier, is superseded by the new memory at once (valid_to =
    the new valid_from). A new memory that arrives that much *older* than an active one
    is stored as history, superseded by the nearest later one. Within the drift nothing
    happens here: that is the scan's contradiction to flag.

    Returns (the new memory, possibly already superseded; the changed actives)."""
    if not (cfg.enabled and cfg.auto_actions.supersede_temporal) or not is_stateful(
        new.predicate, cfg
    ):
        return new, []
    key = sp_key(new)
    if key is None or not new.object:
        return new, []
    drift = timedelta(days=cfg.signals.temporal_drift_days)
    value = object_key(new.object)
    rivals = [
        m
        for m in actives
        if m.memory_id != new.memory_id
        and m.active
        and sp_key(m) == key
        and object_key(m.object) != value
    ]
    later = [m for m in rivals if m.valid_from - new.valid_from > drift]
    if later:
        nearest = min(later, key=lambda m: (m.valid_from, m.memory_id))
        return new.model_copy(
            update={"superseded_by": nearest.memory_id, "valid_to": nearest.valid_from}
        ), []
    older = [m for m in rivals if new.valid_from - m.valid_from > drift]
    return new, [_superseded(m, new, now, cause) for m in sorted(older, key=lambda m: m.memory_id)]


def _union_spans(groups: Iterable[Sequence[EvidenceSpan]]) -> list[EvidenceSpan]:
    """Distinct spans in order, at most MAX_SPANS of them and MAX_SPAN_CHARS of text
    (a memory record must stay well under a Kafka message's size)."""
    seen: set[tuple[str, int, int]] = set()
    out: list[EvidenceSpan] = []
    chars = 0
    for spans in groups:
        for span in spans:
            key = (span.turn_id, span.start, span.end)
            if key in seen or len(out) >= MAX_SPANS or chars + len(span.text) > MAX_SPAN_CHARS:
                continue
            seen.add(key)
            out.append(span)
            chars += len(span.text)
    return out


def _bounded_union(
    *lists: Iterable[str], limit: int, without: frozenset[str] | set[str] = frozenset()
) -> list[str]:
    out: list[str] = []
    for items in lists:
        for item in items:
            if item not in out and item not in without and len(out) < limit:
                out.append(item)
    return out


def canonical_of(members: Sequence[MemoryRecord]) -> MemoryRecord:
    """The memory an equivalent cluster merges into: the highest confidence; ties go to
    the earliest valid_from, then the smallest id (deterministic on every replica)."""
    return min(members, key=lambda m: (-m.confidence, m.valid_from, m.memory_id))


def merge(
    members: Sequence[MemoryRecord], canonical_id: str, now: datetime, cause: str
) -> list[MemoryRecord]:
    """Equivalent memories become one: the canonical keeps the union of the evidence
    spans and claim ids, the sum of the access counts, the earliest valid_from and the
    others' links; every other member gets superseded_by = canonical (its history is
    kept, and the audit topic records the merge)."""
    canonical = next(m for m in members if m.memory_id == canonical_id)
    others = [m for m in members if m.memory_id != canonical_id]
    ids = {m.memory_id for m in members}
    evidence = MemoryEvidence(
        source_id=canonical.evidence.source_id
        or next((m.evidence.source_id for m in others if m.evidence.source_id), None),
        claim_ids=_bounded_union(*(m.evidence.claim_ids for m in members), limit=MAX_MEMBERS),
        spans=_union_spans([canonical.evidence.spans, *(m.evidence.spans for m in others)]),
    )
    merged = _next(
        canonical,
        MemoryChange.MERGED,
        now,
        cause,
        evidence=evidence,
        access_count=sum(m.access_count for m in members),
        valid_from=min(m.valid_from for m in members),
        merged_from=_bounded_union(
            canonical.merged_from, (m.memory_id for m in others), limit=MAX_MEMBERS
        ),
        contradicts_with=_bounded_union(
            *(m.contradicts_with for m in members), limit=MAX_LINKS, without=ids
        ),
    )
    return [
        merged,
        *(
            _next(m, MemoryChange.SUPERSEDED, now, cause, superseded_by=canonical_id, flagged=False)
            for m in others
        ),
    ]


def supersede_chain(
    members: Sequence[MemoryRecord], now: datetime, cause: str
) -> list[MemoryRecord]:
    """A fact that changed over time: in valid_from order, each memory is superseded by
    the next one (valid_to = the next one's valid_from); the latest stays current."""
    ordered = sorted(members, key=lambda m: (m.valid_from, m.memory_id))
    return [_superseded(m, nxt, now, cause) for m, nxt in pairwise(ordered)]


def flag(members: Sequence[MemoryRecord], now: datetime, cause: str) -> list[MemoryRecord]:
    """Contradicting memories: each links the others (contradicts_with) and is flagged
    for review. A memory that already links every other member is left as it is (also
    when a reviewer confirmed it: the same contradiction is not sent to review twice)."""
    changed: list[MemoryRecord] = []
    for m in members:
        others = [o.memory_id for o in members if o.memory_id != m.memory_id]
        if set(others) <= set(m.contradicts_with):
            continue
        links = _bounded_union(m.contradicts_with, others, limit=MAX_LINKS)
        changed.append(
            _next(m, MemoryChange.FLAGGED, now, cause, contradicts_with=links, flagged=True)
        )
    return changed


def confirm(memory: MemoryRecord, now: datetime, cause: str) -> MemoryRecord | None:
    """A reviewer kept a flagged memory: the flag clears, the links stay (so the same
    contradiction is not flagged again). None when it is not flagged."""
    if not memory.flagged:
        return None
    return _next(memory, MemoryChange.CONFIRMED, now, cause, flagged=False)


def unlink(memory: MemoryRecord, gone: set[str], now: datetime, cause: str) -> MemoryRecord | None:
    """Memories `gone` were retracted: drop them from this memory's links; the flag
    clears when nothing it contradicted is left. None when it linked none of them."""
    links = [i for i in memory.contradicts_with if i not in gone]
    if len(links) == len(memory.contradicts_with):
        return None
    if memory.flagged and not links:
        return _next(memory, MemoryChange.UNFLAGGED, now, cause, contradicts_with=[], flagged=False)
    change = MemoryChange.FLAGGED if memory.flagged else MemoryChange.UNFLAGGED
    return _next(memory, change, now, cause, contradicts_with=links)
