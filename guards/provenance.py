"""Provenance / re-entry guard: which source turns may ground a claim
(docs/spec.md §Provenance and re-entry).

A model's earlier output that comes back as "evidence" makes a fabrication look cited.
Four deterministic checks decide, per source turn, before any verifier sees it:

* source tag: only allow-listed sources (default: corpus) ground; a turn without a
  source (absent or empty) is `source_missing`, never read as corpus;
* id namespace: ids with a reserved prefix (chat:, draft:, tmp:, gen:, assistant:) are
  UI or model artefacts; the id is compared in a normal form (`id_form`: NFKC, case
  folded, whitespace and invisible characters removed), so " chat:7", "CHAT:7",
  "ｃｈａｔ：7" or "chat :7" are the chat namespace too;
* content signature: text carrying model-template residue ("citations: [...]",
  "(assistant)", chat-template tokens) is model output whatever its tag says; a bracket
  that opens a list the pattern does not close is optional (`bracket_optional`), so
  "citations: p1#1" is the same residue as "citations: [p1#1]";
* temporal order: evidence created after the claim cannot be what it was extracted from.

Each rejection is a `ReentryReason`; where a rule matched something specific (the refused
source tag, the reserved prefix, the signature's text) that goes into
`rejection_details`, never into the code. The report has one entry per failed turn id:
`rejections` is the complete list of cited ids that failed (a claim with any failed id
has a non-empty `rejections`). Rejected turns never ground; the policy reports every
rejection in checks_failed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache, partial

from groundwire.guards.canonical import canonical, shown_readings
from groundwire.guards.config import ProvenanceConfig
from groundwire.guards.letter_runs import has_letter_run, join_letter_runs, read_leet_labels
from groundwire.topics.records import Claim, ProvenanceReport, SourceTurn
from groundwire.topics.vocab import ReentryReason

MAX_TURNS = 256
MAX_SIGNATURE_SCAN = 20_000


@dataclass(frozen=True, slots=True, eq=False)
class _Rules:
    """A config compiled once: lower-cased sets and the signature regexes, each paired with
    a literal that every match of it must contain ("" when none could be derived).
    `scans` are the same pairs with the regex's search function: `sig.search`, or, for a
    regex that can only match where a line starts, `_search_line_starts` of it. Compared
    and hashed by identity (`_compile` returns one object per config), so it keys the
    per-text cache of `_cached_signature` for free (hashing its fields was ~3 us)."""

    allowed: frozenset[str]
    prefixes: tuple[str, ...]
    signatures: tuple[tuple[str, re.Pattern[str]], ...]
    scans: tuple[tuple[str, Callable[[str], re.Match[str] | None]], ...]
    skew: timedelta
    words: frozenset[str] = frozenset()


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


def _line_anchored(pattern: str, flags: int) -> bool:
    """Whether `pattern`, compiled with `flags` (re.MULTILINE), can only match where a line
    starts: its first top-level item is `^` (not inside a group or an alternation). False
    whenever that cannot be read (same private parser as `_top_level_literal_runs`; the
    caller then searches the ordinary way)."""
    if not flags & re.MULTILINE:
        return False
    try:
        from re import _constants, _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(pattern, flags)
        if not len(parsed):
            return False
        op, arg = parsed[0]
        return bool(op is _constants.AT and arg is _constants.AT_BEGINNING)
    except (ImportError, AttributeError, TypeError, ValueError, re.error, RecursionError):
        return False


def _search_line_starts(sig: re.Pattern[str], text: str) -> re.Match[str] | None:
    """`sig.search(text)` for a pattern that can only match at a line start (see
    `_line_anchored`): tried only at position 0 and after each newline, in order, so the
    first match is the one `search` finds, without trying every position of the text
    (the "^ (assistant) :" signature was ~3 us of a 800-character turn, now ~0.5 us)."""
    found = sig.match(text)
    pos = text.find("\n")
    while found is None and pos != -1:
        found = sig.match(text, pos + 1)
        pos = text.find("\n", pos + 1)
    return found


_OPENERS = {"[": "]", "(": ")", "{": "}"}
_CLOSERS = {close: open_ for open_, close in _OPENERS.items()}
_ANY_OPENER = r"(?:[\[({<]\s*)?"
_ANY_CLOSER = r"(?:\s*[\])}>])?"


def bracket_optional(pattern: str) -> str:
    r"""`pattern` with every escaped bracket it does not pair made optional (and any of
    ( [ { < ), read from the pattern's own structure.

    A signature such as `citations\s*:\s*\[` opens a list and says nothing about what
    follows; the bracket is formatting, and "citations: p1#1" is the same residue. A
    bracket the pattern closes again (`\[/?inst\]`, `\(assistant\)`) is part of the
    marker and stays required, and one already optional (`\(?`) is left alone. Brackets
    pair within the same group level, in order; character classes are skipped. If the
    rewritten pattern does not compile, the original is kept."""
    brackets: list[tuple[int, str, int]] = []  # (position of the backslash, char, depth)
    i, depth, n = 0, 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 < n and (pattern[i + 1] in _OPENERS or pattern[i + 1] in _CLOSERS):
                brackets.append((i, pattern[i + 1], depth))
            i += 2
            continue
        if c == "[":  # a character class: skip to its end ("[]...]" and "[^]...]" too)
            i += 1
            if i < n and pattern[i] == "^":
                i += 1
            if i < n and pattern[i] == "]":
                i += 1
            while i < n and pattern[i] != "]":
                i += 2 if pattern[i] == "\\" else 1
            i += 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        i += 1
    open_stack: list[int] = []
    unpaired: list[int] = []
    for k, (_, char, level) in enumerate(brackets):
        if char in _OPENERS:
            open_stack.append(k)
            continue
        for j in range(len(open_stack) - 1, -1, -1):
            _, opener, opener_level = brackets[open_stack[j]]
            if opener == _CLOSERS[char] and opener_level == level:
                del open_stack[j]
                break
        else:
            unpaired.append(k)
    unpaired = sorted(unpaired + open_stack)
    parts: list[str] = []
    last = 0
    for k in unpaired:
        start, char, _ = brackets[k]
        end = start + 2
        if end < n and pattern[end] in "?*{":  # already optional, or counted: leave it
            continue
        parts.append(pattern[last:start])
        parts.append(_ANY_OPENER if char in _OPENERS else _ANY_CLOSER)
        last = end
    if not parts:
        return pattern
    rewritten = "".join(parts) + pattern[last:]
    try:
        re.compile(rewritten)
    except re.error:
        return pattern
    return rewritten


_INVISIBLE = frozenset({"Cc", "Cf", "Mn", "Me", "Zs", "Zl", "Zp"})


def id_form(value: str) -> str:
    """The form a turn id (or a reserved prefix) is compared in: Unicode NFKC, case
    folded, whitespace, control, format (zero-width, bidi) and combining characters
    removed. " chat:7", "Chat:7", "ｃｈａｔ：７" and "chat :7" all read "chat:7"."""
    if value.isascii():
        return "".join(value.split()).lower()
    text = unicodedata.normalize("NFKC", value)
    text = "".join(
        ch for ch in text if not ch.isspace() and unicodedata.category(ch) not in _INVISIBLE
    )
    return unicodedata.normalize("NFKC", text.casefold())


def source_form(value: str) -> str:
    """The form a source tag is compared in: NFKC, case folded, trimmed."""
    if value.isascii():
        return value.strip().lower()
    return unicodedata.normalize("NFKC", value).casefold().strip()


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


_CASE_PAIR = re.compile(r"\[([a-z])[A-Z]\]")


def _signature_words(patterns: list[str]) -> frozenset[str]:
    """The words the signatures are written with ("assistant", "citations", "inst",
    "im_start" as "imstart"...): the vocabulary a letter-spaced run must spell to be read
    as a word (`letter_runs.join_letter_runs`). Read from the patterns, never listed by
    hand: letters not right after a backslash ("\\s", "\\b" are not words)."""
    words: set[str] = set()
    for pattern in patterns:
        # "[iI][nN]..." is "in...": a function, not a "\\1" template (templates need
        # re's private parser, which `_top_level_literal_runs` must be able to do without)
        pattern = _CASE_PAIR.sub(lambda m: m.group(1), pattern)
        for word in re.findall(r"(?<![\\a-z_])[a-z][a-z_]+[a-z]", pattern):
            words.add(word)
            words.add(word.replace("_", ""))
    words.add("ai")  # the one two-letter word the signatures name ("A.I.:", "A I:")
    return frozenset(w for w in words if len(w) >= 3 or w == "ai")


@lru_cache(maxsize=32)
def _compile(
    allowed: tuple[str, ...], prefixes: tuple[str, ...], patterns: tuple[str, ...], skew_s: float
) -> _Rules:
    # One regex per signature, run on the lower-cased text: a single alternation was
    # measured slower (~8 us vs ~5 us for all eight on a 30-word turn: no literal-prefix
    # scan); with the literal prefilter usually none of them runs at all.
    relaxed = [bracket_optional(p) for p in patterns]
    signatures = tuple(
        (_required_literal(p, re.MULTILINE), re.compile(p, re.MULTILINE)) for p in relaxed
    )
    scans = tuple(
        (
            literal,
            partial(_search_line_starts, sig) if _line_anchored(p, re.MULTILINE) else sig.search,
        )
        for p, (literal, sig) in zip(relaxed, signatures, strict=True)
    )
    return _Rules(
        allowed=frozenset(source_form(s) for s in allowed),
        prefixes=tuple(f for f in (id_form(p) for p in prefixes) if f),
        signatures=signatures,
        scans=scans,
        skew=timedelta(seconds=skew_s),
        words=_signature_words(relaxed),
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
_SOURCE_MISSING = (ReentryReason.SOURCE_MISSING, _NO_DETAIL)
_CREATED_AFTER_CLAIM = (ReentryReason.CREATED_AFTER_CLAIM, _NO_DETAIL)
_TOO_MANY_TURNS = (ReentryReason.TOO_MANY_TURNS, _NO_DETAIL)


@lru_cache(maxsize=1_024)
def _canonical_lower(text: str) -> str:
    """The canonical form line by line, lower-cased: the canonical form makes every run
    of whitespace one space, and a signature anchored at a line's start ("^assistant:")
    would no longer see the line break before a disguised "\nАssistant:". Kept per text:
    a long non-ASCII passage takes ~0.25 ms to canonicalise, and the claims of one
    conversation cite the same turns (at most 1,024 x 20,000 characters)."""
    if "\n" not in text:
        return canonical(text).lower()
    return "\n".join(canonical(line) for line in text.split("\n")).lower()


@lru_cache(maxsize=1_024)
def _cached_signature(raw: str, rules: _Rules) -> str | None:
    """`_signature`, kept per text: the claims of one conversation cite the same turns,
    and with some 20 signatures a long turn takes ~10 us to scan (a hit is a dict lookup)."""
    return _signature(raw, rules)


def _signature(raw: str, rules: _Rules) -> str | None:
    """The model-template residue in a turn's text (its first 32 characters), or None.

    Read as written and, when it may hide something, in the forms a reader sees
    (`_readings`). Each reading is scanned with every signature."""
    for text in _readings(raw, rules):
        for literal, search in rules.scans:
            if literal in text:
                found = search(text)
                if found:
                    return found.group(0)[:32].strip()
    return None


# ASCII that a reader does not see as written: an HTML tag, comment or character reference, a
# %-escape, markdown emphasis or code or a backslash inside a word ("<b>Assistant</b>:",
# "&lt;|im_start|&gt;", "%3C%7Cim_start%7C%3E", "**A**ssistant:"), or emphasis or code at
# a word's edge ("`ChatGPT:`", "as an _AI_ language model"). "_" inside a word is not a
# hint: evidence passages are full of snake_case.
def _markup_hint(mark: str) -> re.Pattern[str]:
    """The hint for one markup character, starting with it as a literal (the engine then
    skips from one occurrence to the next; one pattern starting with a class of all seven
    was measured ~0.8 us a passage, these ~0.2 together)."""
    if mark == "<":
        return re.compile(r"<(?:/?[a-z]|!--)")
    if mark == "&":
        return re.compile(r"&#?[a-z0-9]+;")
    if mark == "%":
        return re.compile(r"%[0-9a-f]{2}")
    m = re.escape(mark)
    edge = rf"(?<![a-z0-9]{m})[*_`]*[a-z]|(?<=[a-z.:]{m})(?![a-z0-9])"
    if mark == "_":
        return re.compile(rf"{m}(?:{edge})")  # not inside a word: snake_case
    return re.compile(rf"{m}(?:(?<=[a-z]{m})[*`\\]*[a-z]|{edge})")


_MARKUP_HINTS = tuple((mark, _markup_hint(mark)) for mark in "<&%*`\\_")


def _has_markup(lower: str) -> bool:
    """Whether `lower` (ASCII) holds markup a reader does not see: a substring test per
    markup character, and its pattern only when the character is there."""
    return any(mark in lower and hint.search(lower) for mark, hint in _MARKUP_HINTS)


# Pictographs are read past: "🤖 Assistant:" and "Assistant 🤖:" name the same speaker.
_PICTOGRAPHS = re.compile(r"[\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+")


def _readings(raw: str, rules: _Rules) -> list[str]:
    """The lower-cased forms of a turn's text that are scanned for signatures: as written;
    its canonical form (`guards/canonical.py`: invisible characters removed, lookalike,
    fullwidth and mathematical letters folded, markup and character references removed)
    when it is not ASCII or holds markup (`_has_markup`), and those of what a renderer
    shows (`canonical.shown_readings`: right-to-left overrides drawn, HTML comments
    dropped); with pictographs
    removed; with letter-spaced runs that spell a signature word joined ("A S S I S T A
    N T:"); and with a line's speaker label spelled with digits or symbols read as the
    signature word it spells ("Ass1stant:").

    ASCII without markup is read as written (canonicalising every turn cost five times
    the guard: evidence passages are full of "_" and "&"). On the dev corpus (5 % of its
    turns non-ASCII) the guard costs 13.2-13.4 µs a claim when every turn is new, 7.7
    when the turns were seen (`_canonical_lower` keeps them)."""
    lower = raw.lower()
    texts = [lower]
    if not raw.isascii() or _has_markup(lower):
        # as a renderer shows it: "\u202e:tnatsissA", "Assi<!-- -->stant:"
        texts.extend(_canonical_lower(shown) for shown in shown_readings(raw))
        plain = _canonical_lower(raw)
        if plain != texts[0]:
            texts.append(plain)
        if not plain.isascii() and _PICTOGRAPHS.search(plain):
            texts.append(_PICTOGRAPHS.sub("", plain))
    last = texts[-1]
    if has_letter_run(last):
        joined = join_letter_runs(last, rules.words)
        if joined != last:
            texts.append(joined)
    if ":" in last:
        leet = read_leet_labels(last, rules.words)  # "Ass1stant:"
        if leet != last:
            texts.append(leet)
    return texts


def _reason(turn: SourceTurn, rules: _Rules, limit: datetime) -> tuple[ReentryReason, str] | None:
    """`rejection_reason` with its detail ("" for none), and with the latest admissible
    creation time precomputed (a datetime addition per turn is measurable at this scale)."""
    source = turn.source
    if source is None:
        return _SOURCE_MISSING
    if source not in rules.allowed:
        tag = source_form(source)
        if not tag:
            return _SOURCE_MISSING
        if tag not in rules.allowed:
            return ReentryReason.SOURCE_NOT_ALLOWED, source[:32]
    if rules.prefixes:
        turn_id = id_form(turn.id)
        if turn_id.startswith(rules.prefixes):  # one C call for the common "no" case
            prefix = next(p for p in rules.prefixes if turn_id.startswith(p))
            return ReentryReason.RESERVED_PREFIX, prefix
    if rules.scans:
        found = _cached_signature(turn.text[:MAX_SIGNATURE_SCAN], rules)
        if found is not None:
            return ReentryReason.TEMPLATE_SIGNATURE, found
    created = turn.created_at
    if created is not None:
        if created.tzinfo is None:
            created = created.replace(tzinfo=UTC)
        if created > limit:
            return _CREATED_AFTER_CLAIM
    return None


# `ProvenanceReport(**fields)` without pydantic's Python `__init__` (`check_provenance`)
_REPORT = ProvenanceReport.__pydantic_validator__.validate_python


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
    # made by the model's validator from a dict (session 18): the same validation as
    # `ProvenanceReport(**fields)` without pydantic's Python `__init__` (`_REPORT`)
    if not rejections:  # the common case; fields left out take their defaults unvalidated
        report: ProvenanceReport = _REPORT({"eligible_turn_ids": eligible})
        return report
    report = _REPORT(
        {"eligible_turn_ids": eligible, "rejections": rejections, "rejection_details": details}
    )
    return report


def eligible_turns(claim: Claim, report: ProvenanceReport) -> list[SourceTurn]:
    """The turns a grounding verifier may see (ids may repeat; a rejected id never passes)."""
    allowed = set(report.eligible_turn_ids) - set(report.rejections)
    return [t for t in claim.source_turns[:MAX_TURNS] if t.id in allowed]
