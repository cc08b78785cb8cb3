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
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import ClaimWords, number_value, stem, word_set

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
    for i, raw in enumerate(raws):
        if raw not in missing:
            continue
        value = number_value(lows[i])
        if value is None or not value.isdigit() or not 2 <= int(value) <= 20:
            continue
        if i and lows[i - 1] in _BOUNDS:
            continue
        # the plural noun it counts: the first lower-case content word in -s within three
        # words ("four services", "four backend services"; not a name: "at 7 James")
        noun = next(
            (
                k
                for k in range(i + 1, min(len(lows), i + 4))
                if words.content[k] and raws[k][:1].islower() and lows[k].endswith("s")
            ),
            None,
        )
        if noun is not None:
            counted.append((i, int(value), {stems[noun]}))
    agreed: set[str] = set()
    conflicts: list[tuple[str, str]] = []
    if not counted:
        return agreed, conflicts
    wanted = set().union(*(nouns for _, _, nouns in counted))
    for s, hit in zip(sentences, shared, strict=True):
        # a list of the counted noun needs that noun and a conjunction in the sentence:
        # checked on its word sets before its text is read with the patterns
        if not hit or wanted.isdisjoint(s.word_stems) or _CONJUNCTIONS.isdisjoint(s.lows):
            continue
        for listed_noun, n, listed in _enumerations(s):
            for i, count, nouns in counted:
                if listed_noun not in nouns:
                    continue
                if count == n:
                    agreed.add(raws[i])
                elif (raws[i], listed) not in conflicts:
                    conflicts.append((raws[i], listed))
    conflicts = [c for c in conflicts if c[0] not in agreed]
    return agreed, conflicts
