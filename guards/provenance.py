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
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from groundwire.guards.config import ProvenanceConfig
from groundwire.topics.records import Claim, ProvenanceReport, SourceTurn

MAX_TURNS = 256
MAX_SIGNATURE_SCAN = 20_000


@dataclass(frozen=True, slots=True)
class _Rules:
    """A config compiled once: lower-cased sets and one signature regex."""

    allowed: frozenset[str]
    prefixes: tuple[str, ...]
    signatures: tuple[re.Pattern[str], ...]
    skew: timedelta


@lru_cache(maxsize=32)
def _compile(
    allowed: tuple[str, ...], prefixes: tuple[str, ...], patterns: tuple[str, ...], skew_s: float
) -> _Rules:
    # One regex per signature, run on the lower-cased text: a single case-insensitive
    # alternation was measured ~10x slower (no literal-prefix scan).
    signatures = tuple(re.compile(p, re.MULTILINE) for p in patterns)
    return _Rules(
        allowed=frozenset(s.lower() for s in allowed),
        prefixes=tuple(p.lower() for p in prefixes),
        signatures=signatures,
        skew=timedelta(seconds=skew_s),
    )


_rules_by_cfg: dict[int, tuple[ProvenanceConfig, tuple[object, ...], _Rules]] = {}


def _rules(cfg: ProvenanceConfig) -> _Rules:
    """Compiled rules for `cfg`; recompiled if the (mutable) config was edited."""
    key = (
        tuple(cfg.allowed_sources),
        tuple(cfg.reserved_prefixes),
        tuple(cfg.template_signatures),
        cfg.max_clock_skew_s,
    )
    hit = _rules_by_cfg.get(id(cfg))
    if hit is not None and hit[0] is cfg and hit[1] == key:
        return hit[2]
    rules = _compile(*key)
    if len(_rules_by_cfg) > 64:
        _rules_by_cfg.clear()
    _rules_by_cfg[id(cfg)] = (cfg, key, rules)
    return rules


def _aware(ts: datetime) -> datetime:
    """Naive timestamps are read as UTC so they compare with aware ones."""
    return ts if ts.tzinfo is not None else ts.replace(tzinfo=UTC)


def rejection_reason(turn: SourceTurn, rules: _Rules, reference: datetime) -> str | None:
    """Why `turn` may not ground the claim, or None if it may."""
    if turn.source.lower() not in rules.allowed:
        return f"source_not_allowed:{turn.source[:32]}"
    if rules.prefixes:
        turn_id = turn.id.lower()
        if turn_id.startswith(rules.prefixes):  # one C call for the common "no" case
            prefix = next(p for p in rules.prefixes if turn_id.startswith(p))
            return f"reserved_prefix:{prefix}"
    if rules.signatures:
        text = turn.text[:MAX_SIGNATURE_SCAN].lower()
        if any(sig.search(text) for sig in rules.signatures):
            return "template_signature"
    if turn.created_at is not None and _aware(turn.created_at) > reference + rules.skew:
        return "created_after_claim"
    return None


def check_provenance(
    claim: Claim, cfg: ProvenanceConfig, now: datetime | None = None
) -> ProvenanceReport:
    """Split the claim's source turns into eligible ids and rejections (turn id -> reason).

    Turns beyond MAX_TURNS are rejected as `too_many_turns` (bounded work per claim)."""
    if not claim.source_turns:
        return ProvenanceReport()
    rules = _rules(cfg)
    if claim.created_at is not None:
        reference = _aware(claim.created_at)
    else:
        reference = now or datetime.now(UTC)
    eligible: list[str] = []
    rejections: dict[str, str] = {}
    for i, turn in enumerate(claim.source_turns):
        reason = "too_many_turns" if i >= MAX_TURNS else rejection_reason(turn, rules, reference)
        if reason is None:
            eligible.append(turn.id)
        else:
            rejections[turn.id] = reason
    return ProvenanceReport(eligible_turn_ids=eligible, rejections=rejections)


def eligible_turns(claim: Claim, report: ProvenanceReport) -> list[SourceTurn]:
    """The turns a grounding verifier may see (ids may repeat; a rejected id never passes)."""
    allowed = set(report.eligible_turn_ids) - set(report.rejections)
    return [t for t in claim.source_turns[:MAX_TURNS] if t.id in allowed]
