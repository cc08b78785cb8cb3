"""Provenance / re-entry guard: which source turns may ground a claim
(docs/spec.md §Provenance and re-entry).

A model's earlier output that comes back as "evidence" makes a fabrication look cited.
Four deterministic checks decide, per source turn, before any verifier sees it:

* source tag: only allow-listed sources (default corpus, user, documentation) ground;
* id namespace: ids with a reserved prefix (chat:, draft:, tmp:, gen:, assistant:) are
  UI or model artefacts;
* content signature: text carrying model-template residue ("citations: [...]",
  "(assistant)", chat-template tokens) is model output whatever its tag says;
* temporal order: evidence created after the claim cannot be what it was extracted from.

Each rejection is a `ReentryReason`; where a rule matched something specific (the refused
source tag, the reserved prefix) that goes into `rejection_details`, never into the code.
Rejected turns never ground; the policy reports every rejection in checks_failed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from groundwire.guards.config import ProvenanceConfig
from groundwire.topics.records import Claim, ProvenanceReport, SourceTurn
from groundwire.topics.vocab import ReentryReason

MAX_TURNS = 256
MAX_SIGNATURE_SCAN = 20_000


@dataclass(frozen=True, slots=True)
class _Rules:
    """A config compiled once: lower-cased sets and the signature regexes, each paired with
    a literal that every match of it must contain ("" when none could be derived)."""

    allowed: frozenset[str]
    prefixes: tuple[str, ...]
    signatures: tuple[tuple[str, re.Pattern[str]], ...]
    skew: timedelta


def _top_level_literal_runs(pattern: str, flags: int) -> list[str] | None:
    """The runs of literal characters at the top level of `pattern`, or None when they
    cannot be known: a bad pattern, one that ignores case, or no regex parser.

    The parser is CPython's private `re._parser` (its layout is not a public API and has
    moved before: `sre_parse` until 3.11), so it is imported here and nowhere else; if the
    import or the parsed shape fails, the answer is None and the caller runs every
    signature regex unfiltered, which is slower but gives the same verdicts."""
    try:
        # typeshed has stubs only for the public re API (and the old sre_* names)
        from re import _constants, _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(pattern, flags)
        if parsed.state.flags & re.IGNORECASE:
            return None
        literal = _constants.LITERAL
        runs: list[str] = []
        run: list[str] = []
        for op, arg in parsed:
            if op is literal:
                run.append(chr(arg))
            elif run:
                runs.append("".join(run))
                run = []
    except (ImportError, AttributeError, TypeError, ValueError, re.error, RecursionError):
        return None
    if run:
        runs.append("".join(run))
    return runs


def _required_literal(pattern: str, flags: int) -> str:
    """The longest run of literal characters at the top level of `pattern`, which every
    match must therefore contain; "" when there is none or it cannot be trusted ("" means
    no prefilter: the regex always runs).

    A substring test (`in`, one C call) is ~20x cheaper than a regex search, and most
    source turns contain none of the signatures' literals ("citations", "<|", "(", ":"
    …), so most regexes never run. The literal must be matched case-exactly against the
    lower-cased text, so patterns that ignore case or have upper-case literals get ""."""
    runs = _top_level_literal_runs(pattern, flags)
    if not runs:
        return ""
    # Longest first; between equals, punctuation (":" beats "a": far rarer in prose).
    literal = max(runs, key=lambda r: (len(r), not r.isalpha()))
    return "" if literal != literal.lower() else literal


@lru_cache(maxsize=32)
def _compile(
    allowed: tuple[str, ...], prefixes: tuple[str, ...], patterns: tuple[str, ...], skew_s: float
) -> _Rules:
    # One regex per signature, run on the lower-cased text: a single alternation was
    # measured slower (~8 us vs ~5 us for all eight on a 30-word turn: no literal-prefix
    # scan); with the literal prefilter usually none of them runs at all.
    signatures = tuple(
        (_required_literal(p, re.MULTILINE), re.compile(p, re.MULTILINE)) for p in patterns
    )
    return _Rules(
        allowed=frozenset(s.lower() for s in allowed),
        prefixes=tuple(p.lower() for p in prefixes),
        signatures=signatures,
        skew=timedelta(seconds=skew_s),
    )


_rules_by_cfg: dict[
    int, tuple[ProvenanceConfig, tuple[list[str], list[str], list[str], float], _Rules]
] = {}


def _rules(cfg: ProvenanceConfig) -> _Rules:
    """Compiled rules for `cfg`; recompiled if the (mutable) config was edited.

    The cached copies of the lists are compared with the live ones (list equality is a
    C loop), which is cheaper per claim than building a tuple key every time."""
    hit = _rules_by_cfg.get(id(cfg))
    if (
        hit is not None
        and hit[0] is cfg
        and hit[1][0] == cfg.allowed_sources
        and hit[1][1] == cfg.reserved_prefixes
        and hit[1][2] == cfg.template_signatures
        and hit[1][3] == cfg.max_clock_skew_s
    ):
        return hit[2]
    rules = _compile(
        tuple(cfg.allowed_sources),
        tuple(cfg.reserved_prefixes),
        tuple(cfg.template_signatures),
        cfg.max_clock_skew_s,
    )
    if len(_rules_by_cfg) > 64:
        _rules_by_cfg.clear()
    snapshot = (
        list(cfg.allowed_sources),
        list(cfg.reserved_prefixes),
        list(cfg.template_signatures),
        cfg.max_clock_skew_s,
    )
    _rules_by_cfg[id(cfg)] = (cfg, snapshot, rules)
    return rules


def _aware(ts: datetime) -> datetime:
    """Naive timestamps are read as UTC so they compare with aware ones."""
    return ts if ts.tzinfo is not None else ts.replace(tzinfo=UTC)


def rejection_reason(turn: SourceTurn, rules: _Rules, reference: datetime) -> ReentryReason | None:
    """Why `turn` may not ground the claim, or None if it may."""
    rejected = _reason(turn, rules, reference + rules.skew)
    return None if rejected is None else rejected[0]


_NO_DETAIL = ""
_TEMPLATE_SIGNATURE = (ReentryReason.TEMPLATE_SIGNATURE, _NO_DETAIL)
_CREATED_AFTER_CLAIM = (ReentryReason.CREATED_AFTER_CLAIM, _NO_DETAIL)
_TOO_MANY_TURNS = (ReentryReason.TOO_MANY_TURNS, _NO_DETAIL)


def _reason(turn: SourceTurn, rules: _Rules, limit: datetime) -> tuple[ReentryReason, str] | None:
    """`rejection_reason` with its detail ("" for none), and with the latest admissible
    creation time precomputed (a datetime addition per turn is measurable at this scale)."""
    source = turn.source
    if source not in rules.allowed and source.lower() not in rules.allowed:
        return ReentryReason.SOURCE_NOT_ALLOWED, source[:32]
    if rules.prefixes:
        turn_id = turn.id.lower()
        if turn_id.startswith(rules.prefixes):  # one C call for the common "no" case
            prefix = next(p for p in rules.prefixes if turn_id.startswith(p))
            return ReentryReason.RESERVED_PREFIX, prefix
    if rules.signatures:
        text = turn.text[:MAX_SIGNATURE_SCAN].lower()
        for literal, sig in rules.signatures:
            if literal in text and sig.search(text):
                return _TEMPLATE_SIGNATURE
    created = turn.created_at
    if created is not None:
        if created.tzinfo is None:
            created = created.replace(tzinfo=UTC)
        if created > limit:
            return _CREATED_AFTER_CLAIM
    return None


def check_provenance(
    claim: Claim, cfg: ProvenanceConfig, now: datetime | None = None
) -> ProvenanceReport:
    """Split the claim's source turns into eligible ids and rejections (turn id -> reason,
    and turn id -> detail where the rule has one).

    Turns beyond MAX_TURNS are rejected as `too_many_turns` (bounded work per claim)."""
    turns = claim.source_turns
    if not turns:
        return ProvenanceReport()
    rules = _rules(cfg)
    if claim.created_at is not None:
        reference = _aware(claim.created_at)
    else:
        reference = now or datetime.now(UTC)
    limit = reference + rules.skew
    eligible: list[str] = []
    rejections: dict[str, ReentryReason] = {}
    details: dict[str, str] = {}
    for i, turn in enumerate(turns):
        rejected = _TOO_MANY_TURNS if i >= MAX_TURNS else _reason(turn, rules, limit)
        if rejected is None:
            eligible.append(turn.id)
        else:
            reason, detail = rejected
            rejections[turn.id] = reason
            if detail:
                details[turn.id] = detail
            else:
                details.pop(turn.id, None)  # a repeated id: the last rejection's detail
    if not rejections:  # the common case; fields left out take their defaults unvalidated
        return ProvenanceReport(eligible_turn_ids=eligible)
    return ProvenanceReport(
        eligible_turn_ids=eligible, rejections=rejections, rejection_details=details
    )


def eligible_turns(claim: Claim, report: ProvenanceReport) -> list[SourceTurn]:
    """The turns a grounding verifier may see (ids may repeat; a rejected id never passes)."""
    allowed = set(report.eligible_turn_ids) - set(report.rejections)
    return [t for t in claim.source_turns[:MAX_TURNS] if t.id in allowed]
