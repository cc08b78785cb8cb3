"""Hedge detection: is the claim's author speculating, and how strongly?
(docs/spec.md §Hedges)

Five categories, two actions. The speaker's own speculation, admitted uncertainty and
suggestions say "nobody checked this", so they block. Technical hedges ("may", "usually")
and approximations ("roughly 5") are legitimate qualifications of engineering facts, so
they only send the claim to review.

What counts as a hedge is `lexicon.py`; the patterns read the canonical text
(`guards/canonical.py`: whitespace, invisible characters, confusable letters and markup
made plain, so "I  think", "th\u200bink", "Ι think" and "**I** think" are all "I think"),
with contractions spelled one way (`normalize.py`) and hedge words spelled letter by
letter or with digits for letters made plain (`spelling.py`). This module runs the candidate
patterns and applies the false-positive filters. Three are required by docs/spec.md
§Hedges: "May 2024" is a month, not a modal (a date next to it makes "may", in any
letter case, a month, and so does a finite verb after it: "May was busy",
`guards/month_may.py`); a negated modal ("couldn't", "could not") usually asserts, it
does not hedge; and "should be 5" / "should be five" describes an expected value.
Nothing cancels a hedge: "I think X, definitely" still blocks (bypass prevention),
because certainty adverbs are never read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from groundwire.guards.canonical import canonical, has_upside_down, shown_readings
from groundwire.guards.config import HedgeConfig
from groundwire.guards.hedge.abbrev import expand, needs_expanding
from groundwire.guards.hedge.lexicon import (
    CARDINALS,
    CATEGORY_ORDER,
    CHECK_BELIEVE,
    CHECK_DISJUNCTION,
    CHECK_FREQUENCY,
    CHECK_MODAL,
    CHECK_WHOSE,
    PATTERNS,
    TRIGGER_WORDS,
    UNITS,
    byte_words,
    candidates,
)
from groundwire.guards.hedge.normalize import (
    BARE_WORDS,
    BELIEF_WORDS,
    close_gap,
    normalize,
    normalize_bare,
)
from groundwire.guards.hedge.spelling import needs_respelling, respell
from groundwire.guards.hedge.split import SPLIT_PIECES, leet_pieces, needs_rejoin, rejoin
from groundwire.guards.month_may import MONTH_BY_NEXT
from groundwire.topics.records import HedgeReport
from groundwire.topics.vocab import HedgeAction, HedgeCategory

__all__ = ["ACTION_OF", "HedgeDetector", "HedgeHit", "analyze", "forget_read"]

# What each category does to the claim: the speaker's own doubt blocks, a qualification
# of a fact sends it to review.
ACTION_OF: dict[HedgeCategory, HedgeAction] = {
    HedgeCategory.PERSONAL_SPECULATION: HedgeAction.BLOCK,
    HedgeCategory.ADMITTED_UNCERTAINTY: HedgeAction.BLOCK,
    HedgeCategory.SUGGESTION: HedgeAction.BLOCK,
    HedgeCategory.TECHNICAL_HEDGE: HedgeAction.REVIEW,
    HedgeCategory.APPROXIMATION: HedgeAction.REVIEW,
}

# The report takes the enum members themselves: pydantic accepts a member faster than it
# looks up a plain string (about 1.0 us against 1.1 us per report).
_NONE = HedgeAction.NONE
# Every claim's report is made by the model's validator from a dict (session 18):
# `HedgeReport(**fields)` is the same validation behind pydantic's Python `__init__`, with
# the same result (the fields given included) and errors (`screening._screen_local`
# builds its `ScreenedClaim` the same way since session 17).
_REPORT = HedgeReport.__pydantic_validator__.validate_python


# The words `HedgeDetector.hits` looks for in one pass: triggers and bare contractions.
# (and the pieces of a hedge word cut in two, so `split.needs_rejoin` reads this small
# set instead of the claim's words again, and the words "i" and "l", without which
# `close_gap` has nothing to do)
_WATCHED = TRIGGER_WORDS | BARE_WORDS | SPLIT_PIECES | {b"i", b"l"}

# Filters: the readings of a matched word that are not hedges (see `_filtered`).
# "May" the month, in any letter case, only with a date next to it: a day or a year after
# it ("May 3", "May 3rd, 2026", "May 2026"), an ordinal day before it ("3rd May", "the
# 3rd of May", "mid-May"), or a time preposition or a bare day before it when no verb can
# follow ("in May.", "since May, ...", "in May and June", "on 3 May the ..."): a modal is
# followed by a verb phrase, never by an end of phrase or a closed-class word (determiner,
# conjunction, preposition, subject pronoun) that cannot start one. "values passed in may
# be null" and "of 5 replicas, 2 may lag" stay modals.
_DAY = r"(?:[12]\d|3[01]|0?[1-9])"
_MONTH_AFTER = re.compile(rf",? (?:{_DAY}(?:st|nd|rd|th)?\b(?!%|[.,:]\d)|(?:1[5-9]|2\d)\d\d\b)")
_MONTH_BEFORE_DAY = re.compile(rf"\b{_DAY}(?:st|nd|rd|th)(?: of)? $|\b{_DAY} of $|\bmid-$")
_MONTH_BEFORE_WEAK = re.compile(
    r"\b(?:in|on|since|until|till|by|during|before|after|from|through|throughout|to|of|"
    rf"for|early|mid|late|last|next|this|every|{_DAY})[ -]$"
)
_NO_VERB_AFTER = re.compile(
    r" ?(?:[.,;:!?)\]\"]|$)| (?:the|a|an|this|that|these|those|our|their|its|my|his|her|"
    r"your|and|or|but|nor|when|while|because|although|though|if|as|after|before|since|"
    r"until|till|in|on|at|of|for|with|from|by|to|into|during|we|they|i|he|she|it|you|\d)\b"
)
# The comparative clause is elliptical ("as it should.", "as it should be,"); with a full
# predicate ("as it should be faster") "as" is causal and "should" may well be epistemic.
_ELLIPSIS_AFTER = re.compile(r"(?:\s+be)?\s*(?:[.,;:!?)\"]|$)")
_NORM_COMPARISON_BEFORE = re.compile(r"\b(?:[Aa]s|[Ll]ike) \w+(?: \w+ly)? $")
_DETERMINER_BEFORE = re.compile(r"\b(?:[Tt]he|[Aa]n?|[Tt]his|[Tt]hat) $")
_ADDRESSEE_BEFORE = re.compile(r"(?:\b[Yy]ou|\b[Oo]ne)\s+$")
_BELIEVE_OBJECT = re.compile(r"\s+(?:it|you|him|her|them|me|this|that)\s*(?:[.!?,;)\"]|$)")
# "should be 5" / "should be five" / "should be a dozen": a number, in digits or words
# (not "one of the ...").
_SHOULD_NUMERIC = re.compile(
    r"\s+(?:be|equal|return|read|show|contain|have)\s+"
    rf"(?:[~$€£-]?\d|(?:{'|'.join(CARDINALS)}|half|an? (?:dozen|hundred|thousand|million|"
    r"billion))\b(?! of\b))",
    re.IGNORECASE,
)
# "a day or two", "one or two": the word before "or" is a quantity.
_QUANTITY_WORDS = frozenset(CARDINALS) | frozenset(UNITS)
_WORD_BEFORE_OR = re.compile(r"(\w+) $")


class HedgeHit(NamedTuple):
    """One hedge found. A NamedTuple: built per match on the hot path, and a frozen
    dataclass's __init__ (object.__setattr__ per field) was measured ~4x slower."""

    category: HedgeCategory
    text: str
    start: int


def _is_month(lower: str, start: int) -> bool:
    """ "may" as the month (spec: Hedges): a date next to it, in any letter case."""
    if _MONTH_AFTER.match(lower, start + 3):
        return True
    if MONTH_BY_NEXT.match(lower, start + 3):
        return True  # "May was busy": no modal is followed by a finite verb (`month_may.py`)
    before = lower[max(0, start - 16) : start]
    if _MONTH_BEFORE_DAY.search(before):
        return True
    return bool(_MONTH_BEFORE_WEAK.search(before)) and bool(_NO_VERB_AFTER.match(lower, start + 3))


def _after_quantity(lower: str, start: int) -> bool:
    """ "or two" approximates only after a quantity ("a day or two", "one or two")."""
    m = _WORD_BEFORE_OR.search(lower, max(0, start - 16), start)
    return m is not None and (m.group(1) in _QUANTITY_WORDS or m.group(1).isdigit())


def _hit_order(hit: HedgeHit) -> tuple[int, int]:
    return CATEGORY_ORDER[hit.category], hit.start


_SEVERITY = {HedgeAction.BLOCK: 2, HedgeAction.REVIEW: 1, HedgeAction.NONE: 0}


def _stricter(extra: Sequence[HedgeHit], found: Sequence[HedgeHit]) -> bool:
    """Whether any of `extra` asks for a stricter action than every hit of `found`."""
    most = max(_SEVERITY[ACTION_OF[h.category]] for h in found)
    return any(_SEVERITY[ACTION_OF[h.category]] > most for h in extra)


# a third person and a copula right before "not sure" / "unsure": someone else's state,
# reported ("The user is not sure whether ...", "they're unsure"), not the writer's doubt
_OTHER_SUBJECT = re.compile(
    r"\b(?:the (?:user|customer|client|team|manager|owner)|user|he|she|they)"
    r"(?:'s|'re| is| was| are| were| seems| seemed| remains| remained)(?: still)?\s*$"
)


def _filtered(hit: str, norm: str, lower: str, start: int, end: int) -> bool:
    """The required filters (spec: Hedges) plus root (non-epistemic) readings the lists miss."""
    word = hit.lower()
    if word == "may":
        return _is_month(lower, start)
    if word == "should":
        # "should be 5" states an expected value; "you should buy it" / "one should" is
        # advice to the reader (deontic); "as it should (be)" / "like he should" compares
        # with what is proper (deontic norm). None of them doubts a fact.
        return (
            bool(_SHOULD_NUMERIC.match(norm, end))
            or bool(_ADDRESSEE_BEFORE.search(norm, max(0, start - 5), start))
            or (
                bool(_ELLIPSIS_AFTER.match(norm, end))
                and bool(_NORM_COMPARISON_BEFORE.search(norm, max(0, start - 30), start))
            )
        )
    if word == "unlikely":
        # Attributive "an unlikely hero / the unlikely pair": surprising, not improbable.
        return bool(_DETERMINER_BEFORE.search(norm, max(0, start - 6), start))
    return False


def _not_the_writers(check: int, hit: str, norm: str, lower: str, start: int, end: int) -> bool:
    """A belief already held ("I believe it") or a third person's doubt, reported ("the
    user is not sure whether ..."): no hedge of the writer's on the claim."""
    if check == CHECK_BELIEVE:
        return _filtered_personal(hit, norm, end)
    if check == CHECK_WHOSE:
        return _OTHER_SUBJECT.search(lower, max(0, start - 40), start) is not None
    return False


def _filtered_personal(hit: str, norm: str, end: int) -> bool:
    """ "I believe it." / "I believe you": credence in a statement or a person already
    made, not a hedge on a proposition (that needs a clause: "I believe it is 5")."""
    return hit.lower().endswith("believe") and bool(_BELIEVE_OBJECT.match(norm, end))


# A right-to-left override inside a word: a letter or digit on both sides ("perhap\u202es
# 5"); and one that is not: a space or a mark on either side ("Maybe \u202e5 si ti",
# "Perhaps ~\u202e5 si ti"). Session 14: a mark was read as part of a word, so "~" made
# the override in "Perhaps ~\u202e5 si ti" (shown "Perhaps ~it is 5") one inside a word,
# and the stored "Perhaps ~5" (review) decided instead of what a reader sees (block).
_OVERRIDE = "\u202e"
_OVERRIDE_BETWEEN_WORDS = re.compile(r"(?:^|[^\w\u202e])\u202e|\u202e(?:[^\w\u202e]|$)")


def _same_words_read(shown: Sequence[HedgeHit], found: Sequence[HedgeHit]) -> list[HedgeHit]:
    """The hits of `shown` whose words no hit of `found` holds: "perhaps" drawn from
    "perhap\u202es 5" (shown "perhap5 s") is the word the written reading read as
    "perhaps 5"; "I think" drawn from "usual\u202ely kniht I ," is a word it never read."""
    read = [f" {hit.text.lower()} " for hit in found]
    return [hit for hit in shown if not any(f" {hit.text.lower()} " in r for r in read)]


# The hits of the texts read last (session 16, round 2). The screen stage reads each
# claim here, and the lexical verifier reads the same claim again when it opens in the
# first person (`grounding/lexical/speculation.own_conjecture`: the hedge report of the
# claim text), a whole second pass over the same canonical text. The hits depend on the
# canonical text and on `frequency_adverbs_review` alone (the patterns and word lists
# are fixed), so the key is both, by value; the screen stage screens a batch before it
# grounds it, so the memo holds a batch's claims, and `screening.screen_batch` empties it
# when the next batch comes (`forget_read`: other claims; a workload that screens the
# same texts again, as the benchmarks do, measures no hit across batches). Bounded:
# `_READ_MAX` texts (emptied when full) of at most `_READ_CHARS` characters (a longer
# text is read every time). Kept as tuples (a caller extends and sorts its list), copied
# out.
_READ: dict[tuple[str, bool], tuple[HedgeHit, ...]] = {}
_READ_MAX = 1_024
_READ_CHARS = 2_000


def forget_read() -> None:
    """Empty the memo of hits (a new batch of claims)."""
    _READ.clear()


class HedgeDetector:
    """Finds hedges; `analyze` returns the wire-level HedgeReport."""

    def __init__(self, cfg: HedgeConfig | None = None) -> None:
        self._cfg = cfg or HedgeConfig()

    def hits(self, text: str, *, is_canonical: bool = False) -> list[HedgeHit]:
        """Every hedge found, block categories first (bounded: only `max_chars` are read).

        The patterns read the canonical text (`groundwire.guards.canonical`); a caller
        that has it already (the screening function) says so with `is_canonical`."""
        limit = self._cfg.max_chars
        text = text[:limit] if is_canonical else canonical(text[:limit])[:limit]
        if len(text) > _READ_CHARS:
            return self._hits(text)
        key = (text, self._cfg.frequency_adverbs_review)
        known = _READ.get(key)
        if known is not None:
            return list(known)
        found = self._hits(text)
        if len(_READ) >= _READ_MAX:
            _READ.clear()
        _READ[key] = tuple(found)
        return found

    def _hits(self, text: str) -> list[HedgeHit]:
        """`hits` of a canonical text, bounded already: read anew."""
        norm = normalize(text)
        lower = norm.lower()
        tokens = byte_words(lower)
        if needs_respelling(lower, tokens):
            # A hedge word cut by a space is rejoined before any piece of it is respelled:
            # "suppos edly" is "supposedly" (review), not the misspelled "suppos" read as
            # "suppose" (block) next to a stray "edly". Only when respelling may run, so
            # the common claim pays nothing; the rejoin after respelling stays for the
            # pieces that respelling makes.
            # (a piece may be spelled with digits: "pr0b ably", `split.leet_pieces`)
            early = needs_rejoin(_WATCHED.intersection(tokens).union(leet_pieces(tokens)))
            if early:
                norm = normalize(rejoin(norm, early))
                lower = norm.lower()
                tokens = byte_words(lower)
            # "p r o b a b l y", "pr0bably": hedge words spelled to slip past the patterns
            respelled = respell(norm)
            if respelled != norm:
                norm = normalize(respelled)
                lower = norm.lower()
                tokens = byte_words(lower)
        # (the words as they are: a set test reads any iterable, and a frozenset of them
        # cost a hash and an insertion per word of every claim with a full stop; session 18)
        if ("." in lower or "approx" in lower) and needs_expanding(tokens):
            # "(prob.)", "approx. 10 ms": an abbreviated hedge adverb (`abbrev.py`)
            norm = normalize(expand(norm))
            lower = norm.lower()
            tokens = byte_words(lower)
        words = _WATCHED.intersection(tokens)
        pairs = needs_rejoin(words)
        if pairs:
            # "I th ink", "prob ably": a hedge word cut in two by a space (`split.py`)
            norm = normalize(rejoin(norm, pairs))
            lower = norm.lower()
            words = _WATCHED.intersection(byte_words(lower))
        found = self._scan(norm, lower, words)
        if len(found) > 1:
            found.sort(key=_hit_order)
        return found

    def _scan(self, norm: str, lower: str, words: frozenset[bytes]) -> list[HedgeHit]:
        """The hits of the patterns on one normalized text (`lower`: its lower case,
        `words`: its `byte_words` that are in `_WATCHED`), unsorted. The caller made
        `words` in one hashing pass over the claim's words: trigger words, the
        contraction spellings that need the second normalization pass, and split pieces."""
        if not BELIEF_WORDS.isdisjoint(words) and (b"i" in words or b"l" in words):
            # "I... think", "I, uh, think", 'I "think"', "l think"
            closed = close_gap(norm, lone_l=b"l" in words)
            if closed != norm:
                norm = closed
                lower = norm.lower()
        if not BARE_WORDS.isdisjoint(words):
            norm = normalize_bare(norm)
            lower = norm.lower()
            words = _WATCHED.intersection(byte_words(lower))
        found: list[HedgeHit] = []
        skip_frequency = not self._cfg.frequency_adverbs_review
        for index in candidates(lower, words):
            pat = PATTERNS[index]
            check = pat.check
            for m in pat.regex.finditer(lower):
                start = m.start()
                if start and lower[start - 1].isalnum() and lower[start].isalnum():
                    continue  # inside a word ("dismay" is not "may"); "Redis??" is a note
                end = m.end()
                phrase = norm[start:end].strip()
                if check:
                    if check == CHECK_MODAL:
                        if _filtered(phrase, norm, lower, start, end):
                            continue
                    elif check == CHECK_FREQUENCY:
                        if skip_frequency:
                            continue
                    elif check == CHECK_DISJUNCTION:
                        if not _after_quantity(lower, start):
                            continue
                    elif _not_the_writers(check, phrase, norm, lower, start, end):
                        continue
                found.append(HedgeHit(pat.category, phrase, start))
        return found

    def analyze(
        self, text: str, *, is_canonical: bool = False, raw: str | None = None
    ) -> HedgeReport:
        """The wire-level report: decisive action/category and the distinct hedge words.

        `raw`: the text as written, when `text` is its canonical form. A text is also
        read as a renderer shows it (`canonical.shown_readings`: a right-to-left override
        drawn, "\u202ekniht I" shows "I think"; HTML comments dropped, "I th<!-- -->ink"),
        and the hits of every reading count."""
        if not self._cfg.enabled:
            return HedgeReport()
        found = self.hits(text, is_canonical=is_canonical)
        written = text if not is_canonical else raw
        if written is not None and (
            "\u202e" in written or "<!--" in written or has_upside_down(written)
        ):
            shown_hits = [hit for shown in shown_readings(written) for hit in self.hits(shown)]
            if (
                shown_hits
                and found
                and _OVERRIDE in written
                and not _OVERRIDE_BETWEEN_WORDS.search(written)
            ):
                # Every override sits inside a word, which its drawing tears ("perhap\u202es
                # 5" shows "perhap5 s", "perhaps ~\u202e55 ..." shows "perhaps ~.6 ... 55"):
                # a hedge word the written reading already read is decided by the stored
                # order ("perhaps 5", review), not by the pieces of the tear ("perhaps" on
                # its own, block). Hedges the drawing shows anew still count.
                shown_hits = _same_words_read(shown_hits, found)
            # what a renderer shows may make the claim stricter, never merely other: an
            # override drawn inside "may\u202ebe 5 ..." shows a bare "may", which must not
            # turn the written approximation into a technical hedge of the same action
            if shown_hits and (not found or _stricter(shown_hits, found)):
                found += shown_hits
                found.sort(key=_hit_order)
        if not found:
            report: HedgeReport = _REPORT({"action": _NONE})
            return report
        # `hits` sorts block categories first, so the first hit decides; a block category
        # is never outweighed by assertion markers elsewhere in the text.
        decisive = found[0].category
        if len(found) == 1:
            words = [found[0].text]
        else:
            words = list(dict.fromkeys(h.text for h in found))[: self._cfg.max_words]
        report = _REPORT({"action": ACTION_OF[decisive], "category": decisive, "words": words})
        return report


_DEFAULT = HedgeDetector()


def analyze(text: str, cfg: HedgeConfig | None = None) -> HedgeReport:
    """Module-level convenience: one detector per config is cheap, the patterns are global."""
    return _DEFAULT.analyze(text) if cfg is None else HedgeDetector(cfg).analyze(text)
