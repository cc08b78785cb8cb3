"""Provenance / re-entry guard: which source turns may ground a claim (seed 004).

A model's earlier output that comes back as "evidence" makes a fabrication look cited.
Four deterministic checks decide, per source turn, before any verifier sees it:

* source tag: only allow-listed sources (default corpus, user, documentation) ground;
* id namespace: ids with a reserved prefix (chat:, draft:, tmp:, gen:, assistant:) are
  UI or model artefacts;
* content signature: text carrying model-template residue ("citations: [...]",
  "(assistant)", chat-template tokens) is model output whatever its tag says;
* temporal order: evidence created after the claim cannot be what it was extracted from.

Rejected turns never ground; the policy reports every rejection in checks_failed.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from groundwire.guards.config import ProvenanceConfig
from groundwire.topics.records import Claim, ProvenanceReport, SourceTurn

MAX_TURNS = 256
MAX_SIGNATURE_SCAN = 20_000


@lru_cache(maxsize=32)
def _signature_re(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    if not patterns:
        return None
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE | re.MULTILINE)


def _aware(ts: datetime) -> datetime:
    """Naive timestamps are read as UTC so they compare with aware ones."""
    return ts if ts.tzinfo is not None else ts.replace(tzinfo=UTC)


def rejection_reason(
    turn: SourceTurn, cfg: ProvenanceConfig, reference: datetime, signatures: re.Pattern[str] | None
) -> str | None:
    """Why `turn` may not ground the claim, or None if it may."""
    if turn.source.lower() not in {s.lower() for s in cfg.allowed_sources}:
        return f"source_not_allowed:{turn.source[:32]}"
    turn_id = turn.id.lower()
    for prefix in cfg.reserved_prefixes:
        if turn_id.startswith(prefix.lower()):
            return f"reserved_prefix:{prefix}"
    if signatures is not None and signatures.search(turn.text[:MAX_SIGNATURE_SCAN]):
        return "template_signature"
    if turn.created_at is not None:
        skew = timedelta(seconds=cfg.max_clock_skew_s)
        if _aware(turn.created_at) > reference + skew:
            return "created_after_claim"
    return None


def check_provenance(
    claim: Claim, cfg: ProvenanceConfig, now: datetime | None = None
) -> ProvenanceReport:
    """Split the claim's source turns into eligible ids and rejections (turn id -> reason).

    Turns beyond MAX_TURNS are rejected as `too_many_turns` (bounded work per claim)."""
    reference = _aware(claim.created_at) if claim.created_at else (now or datetime.now(UTC))
    signatures = _signature_re(tuple(cfg.template_signatures))
    eligible: list[str] = []
    rejections: dict[str, str] = {}
    for i, turn in enumerate(claim.source_turns):
        reason = (
            "too_many_turns"
            if i >= MAX_TURNS
            else rejection_reason(turn, cfg, reference, signatures)
        )
        if reason is None:
            eligible.append(turn.id)
        else:
            rejections[turn.id] = reason
    return ProvenanceReport(eligible_turn_ids=eligible, rejections=rejections)


def eligible_turns(claim: Claim, report: ProvenanceReport) -> list[SourceTurn]:
    """The turns a grounding verifier may see (ids may repeat; a rejected id never passes)."""
    allowed = set(report.eligible_turn_ids) - set(report.rejections)
    return [t for t in claim.source_turns[:MAX_TURNS] if t.id in allowed]
