"""A count against a list: "we run four services" where the source names them, "our
services are billing, search and auth", says a number the source never writes but does
state: three. Word overlap only sees that "four" is missing, which caps the claim at
partial (and approves it by default); the list says how many there are.

An enumeration is a list of two or more items ("A, B and C", "A and B", "A, B or C"), each
of one to four words, that a plural noun introduces or sums up in the same sentence:

* the noun before it: "three services: A, B and C", "services (A, B and C)", "the
  services (we run) are / were / include A, B and C" (up to four words between);
  "services such as" is no enumeration (an example list is not all of them);
* the noun after it: "A, B and C are our services", "we run A, B and C as services".

A claim number that counts that noun (the number right before it, or one or two words
before it: "four backend services") is then read against the number of items: another
number is a contradiction (the same number is reported as agreeing; the verifier still
scores it as a number the source does not write: the weights were fitted that way, and
taking it out was measured to lose the partial verdict a claim's core gives it). A
number bounded by "at least", "over", "about"... is not a count of all of them and is
left alone. Only small counts (2 to 20) are read.

The same count is read against a source sentence that counts the same noun with a number
(session 14): "a pair of GPUs" against "The team bought three GPUs", "IV replicas"
against "three replicas". The swapped-specific rule (`features._conflicts`) finds a
number only between the same neighbours, and "a pair of" or an adjective before the
noun ("four backend services") moves them. The source's number must count the noun too
(the first plural within three words after it), be no bound ("at least three"), both
must be plain counts (no scale word and no unit: "10 million dollars" against "5 mln
dollars" is an amount, `changed_values.py`'s), the source must count the noun one way
only (two counts, "5 engineers in Berlin and 3 in Paris", may add up to the claim's), and
the sentence must hold another word of the claim besides the noun; the claim's number is
one the source does not write anywhere (only those are read). Only small counts (2 to
20) of the claim are read, as for lists.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.numerals import read_numerals
from groundwire.guards.grounding.lexical.text import ClaimWords, number_value, stem, word_set
from groundwire.guards.grounding.lexical.units import _UNIT_WORDS

__all__ = ["listed_counts"]

# words that make a number a bound or an estimate, not the count of all of them
_BOUNDS = word_set("least most than over under about around nearly almost roughly some")
_MAX_ITEM_WORDS = 4
_WORD = re.compile(r"[A-Za-z][\w'-]*")
# the noun, then the list: "services: A, B and C", "services (A, B and C)",
# "services are A, B and C"
_BEFORE = re.compile(
    r"([A-Za-z][\w-]*s)\s*(?::|\(|(?:\s+[a-z][\w'-]*){0,4}?,?\s+"
    r"(?:are|were|include|includes|included|namely)\b:?)\s*([^.;:()!?]+)",
    re.IGNORECASE,
)
# the list, then the noun: "A, B and C are our services", "A, B and C as (our) services"
_AFTER = re.compile(
    r"([^.;:()!?]+?)\s+(?:are|were|as)\s+(?:our|the|its|their|his|her|my|your|all)?\s*"
    r"(?:[A-Za-z][\w-]*\s+)?([A-Za-z][\w-]*s)\b",
    re.IGNORECASE,
)


# What each pattern cannot match without (same flags, so a text without it matches
# neither): `_AFTER`'s verb between whitespace, `_BEFORE`'s colon, parenthesis or verb.
# `_AFTER` tries its lazy list from every position up to such a verb (quadratic in a
# sentence: 15 ms for one of 800 characters); most sentences have none.
_AFTER_HINT = re.compile(r"\s(?:are|were|as)\s", re.IGNORECASE)
_BEFORE_HINT = re.compile(r"[:(]|\s(?:are|were|include|namely)", re.IGNORECASE)
# Source sentences whose enumerations are kept (`_enumerations`): the claims of a
# conversation read the same sentences; the lists of a sentence depend on its text alone
# (the same for every tenant). Keys are (the turn's text, start, end): the turn's text
# is one string shared by its sentences, the turn cache's own.
ENUMERATIONS_CACHE = 1_024

_SPLIT = re.compile(r"(\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)", re.IGNORECASE)
_CONJ = re.compile(r"\b(?:and|or)\b", re.IGNORECASE)
_CONJUNCTIONS = word_set("and or")


def _items(text: str, from_end: bool) -> int:
    """How many items a list holds (0 when `text` is no list): pieces cut at commas and
    at "and"/"or", each of one to `_MAX_ITEM_WORDS` words, the last two joined by "and"
    or "or" ("A, B and C"); read from its start (a list after its noun) or back from its
    end (a list before its noun, whose first item may carry the words before it: "we run
    billing, search and auth")."""
    parts = _SPLIT.split(text.strip())
    pieces, seps = parts[0::2], parts[1::2]
    if len(pieces) < 2:
        return 0
    if from_end:
        pieces, seps = pieces[::-1], seps[::-1]
    n = 0
    for piece in pieces:
        words = _WORD.findall(piece)
        if not words or len(words) > _MAX_ITEM_WORDS:
            if from_end and n >= 1 and words:
                n += 1  # the first item, with the words before it
            break
        n += 1
    if n < 2:
        return 0
    # the conjunction joins the last two items: before the last (read forwards) or
    # between the first two read backwards
    last_sep = seps[0] if from_end else seps[n - 2]
    return n if _CONJ.search(last_sep) else 0


def _enumerations(s: Sentence) -> tuple[tuple[str, int, str], ...]:
    """(noun stem, number of items, the list as written) of the sentence's enumerations;
    cached per sentence (`ENUMERATIONS_CACHE`)."""
    return _enumerations_in(s.text, s.start, s.end)


@functools.lru_cache(maxsize=ENUMERATIONS_CACHE)
def _enumerations_in(turn_text: str, start: int, end: int) -> tuple[tuple[str, int, str], ...]:
    """`_enumerations` of the sentence `turn_text[start:end]`."""
    text = turn_text[start:end]
    found: list[tuple[str, int, str]] = []
    if _BEFORE_HINT.search(text) is not None:
        for m in _BEFORE.finditer(text):
            if m.group(2).lstrip().lower().startswith(("such as", "like", "e.g", "for example")):
                continue
            n = _items(m.group(2), from_end=False)
            if n:
                found.append((stem(m.group(1).lower()), n, m.group(2).strip()))
    if _AFTER_HINT.search(text) is not None:
        for m in _AFTER.finditer(text):
            n = _items(m.group(1), from_end=True)
            if n:
                found.append((stem(m.group(2).lower()), n, m.group(1).strip()))
    return tuple(found)


def listed_counts(
    words: ClaimWords,
    missing: Sequence[str],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
) -> tuple[set[str], list[tuple[str, str]]]:
    """Of the claim's numbers not in the source (`missing`, as written): those a source
    list states (the same count of the same noun), and (claim number, the list) for those
    it contradicts."""
    raws, lows, stems = words.raws, words.lows, words.stems
    counted: list[tuple[int, int, set[str]]] = []  # (position, count, noun stems after it)
    # of those, the plain counts (`_plain`): noun stem -> count -> first claim position
    # (a claim of one count repeated reads each source count once per distinct count)
    plain: dict[str, dict[int, int]] = {}
    for i, raw in enumerate(raws):
        if raw not in missing:
            continue
        value = words.numbers[i]  # as the claim reads it ("a pair of", "IV replicas")
        if value is None or not value.isdigit() or not 2 <= int(value) <= 20:
            continue
        if i and lows[i - 1] in _BOUNDS:
            continue
        noun = _counted_noun(raws, lows, words.content, i)
        if noun is not None:
            counted.append((i, int(value), {stems[noun]}))
            if _plain(lows, i, noun):
                plain.setdefault(stems[noun], {}).setdefault(int(value), i)
    agreed: set[str] = set()
    conflicts: list[tuple[str, str]] = []
    alike: dict[int, dict[int, str]] = {}  # claim position -> source count -> as written
    if not counted:
        return agreed, conflicts
    wanted = set().union(*(nouns for _, _, nouns in counted))
    for s, hit in zip(sentences, shared, strict=True):
        # a list of the counted noun needs that noun and a conjunction in the sentence:
        # checked on its word sets before its text is read with the patterns
        if not hit or wanted.isdisjoint(s.word_stems):
            continue
        if plain and len(hit) >= 2:  # the noun and some other word of the claim
            for i, j, n in _counted_alike(plain, s):
                alike.setdefault(i, {}).setdefault(n, s.raws[j])
        if _CONJUNCTIONS.isdisjoint(s.lows):
            continue
        for listed_noun, n, listed in _enumerations(s):
            for i, count, nouns in counted:
                if listed_noun not in nouns:
                    continue
                if count == n:
                    agreed.add(raws[i])
                elif (raws[i], listed) not in conflicts:
                    conflicts.append((raws[i], listed))
    for i, counts in alike.items():
        # the source counts the noun one way only: several counts ("5 engineers in
        # Berlin and 3 in Paris") may add up to the claim's, which is no contradiction
        if len(counts) == 1:
            pair = (raws[i], next(iter(counts.values())))
            if pair not in conflicts:
                conflicts.append(pair)
    conflicts = [c for c in conflicts if c[0] not in agreed]
    return agreed, conflicts


def _counted_noun(
    raws: Sequence[str], lows: Sequence[str], content: Sequence[bool], i: int
) -> int | None:
    """The position of the plural noun the number at `i` counts: the first content word
    in -s within three words that is lower-case or an acronym's plural ("four services",
    "four backend services", "a pair of GPUs"; not a name: "at 7 James"), else None."""
    for k in range(i + 1, min(len(lows), i + 4)):
        raw = raws[k]
        if (
            content[k]
            and lows[k].endswith("s")
            and (raw[:1].islower() or (len(raw) > 2 and raw[:-1].isupper()))
        ):
            return k
    return None


def _plain(lows: Sequence[str], i: int, noun: int) -> bool:
    """Whether the number at `i` counts the noun at `noun` as things, not an amount: no
    scale or other number between ("10 million dollars") and the noun no unit ("5 mln
    dollars", "3 hours": amounts are read by `units.py` and `changed_values.py`)."""
    return lows[noun] not in _UNIT_WORDS and all(
        number_value(lows[k]) is None for k in range(i + 1, noun)
    )


def _counted_alike(plain: dict[str, dict[int, int]], s: Sentence) -> list[tuple[int, int, int]]:
    """(claim position, source position, source count) of each count the sentence gives
    of a claim count's noun (`plain`: noun stem -> count -> claim position; "a pair of
    GPUs" against "three GPUs"). The
    source's number must be a plain count of all of them too (no bound before it,
    `_plain`); the claim's number appears nowhere in the source (`listed_counts` reads
    only those), so every such count is another number."""
    lows, raws = s.lows, s.raws
    values = read_numerals(raws, lows, tuple(map(number_value, lows)))
    out: list[tuple[int, int, int]] = []
    for j, value in enumerate(values):
        if value is None or not value.isdigit() or (j and lows[j - 1] in _BOUNDS):
            continue
        noun = _counted_noun(raws, lows, s.content, j)
        if noun is None or not _plain(lows, j, noun):
            continue
        for count, i in plain.get(s.word_stems[noun], {}).items():
            if int(value) != count:
                out.append((i, j, int(value)))
    return out
