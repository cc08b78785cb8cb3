"""A word the claim writes in two parts reads as the source's closed word.

English writes many compounds and surnames open or closed ("Di Caprio" / "DiCaprio",
"web site" / "website", "Mc Donald" / "McDonald"), and people typing in a chat often
split a name they know from the other spelling. Word overlap read "di" and "caprio" as
two words no source has, and a name the source does not give, so "it has di caprio in
it as well" against a cast list that says "Leonardo DiCaprio" scored 0 % found.

The rule: two adjacent words of the claim whose letters joined are one word of the
source, where the source does not write the two words apart anywhere, are written as the
source writes the joined word before the words are compared. Only content words join:
the source word must not be a stop word and neither part may be one, so "in to" /
"into", "every one" / "everyone" or "some times" / "sometimes" (a function word, which
changes the sense when closed) are left as written. A word split into parts that are
each words of the source ("face" and "book" in a text with "face" and "Facebook") is
left too: the parts then may mean themselves. Nothing else is rewritten, so a split
word the source never closes stays two unsupported words.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from groundwire.guards.grounding.lexical.text import STOPWORDS, claim_words, fold_disguises
from groundwire.topics.records import SourceTurn

__all__ = ["close_split_words"]

# Letters only: a number or a symbol never joins ("3 D" / "3D" is a unit question).
_ALPHA = re.compile(r"[^\W\d_]+")
# The same words in an ASCII text: `_ALPHA`'s class there is exactly the Latin letters,
# which the regex engine tests from a bitmap instead of the Unicode tables.
_ASCII_ALPHA = re.compile(r"[A-Za-z]+")
# Texts whose closed words are kept (`_source_words`); the claims of a conversation cite
# the same turns. A few hundred texts of at most `max_evidence_chars` each.
SOURCE_WORDS_CACHE = 512
# A closed word shorter than this is too likely a chance join ("a" + "n" = "an").
MIN_JOINED = 5


def close_split_words(claim_text: str, turns: Sequence[SourceTurn]) -> str:
    """`claim_text` with each open pair of words the source writes closed (see the module
    docstring) replaced by the source's written form; `claim_text` itself when none."""
    # The cheap test first (session 15, round 2): a pair joins only when its letters
    # joined are a closed word of some turn, so when no two adjacent words of the claim
    # join to any (set operations in C over the claim's words and the cached source
    # words) the per-pair walk below would find nothing. Exact: `lows` are the words the
    # walk lower-cases, and every word it joins is one of `joins`.
    lows = _claim_lows(claim_text)
    if len(lows) < 2:
        return claim_text
    joins = set(map(operator.add, lows, lows[1:]))
    if all(joins.isdisjoint(_source_words(t.text)[0]) for t in turns):
        return claim_text
    matches = list(_ALPHA.finditer(claim_text))
    # the claim's candidate pairs first: most claims have none worth a look at the source
    pairs = [
        k
        for k in range(len(matches) - 1)
        if claim_text[matches[k].end() : matches[k + 1].start()] == " "
        and len(matches[k].group()) + len(matches[k + 1].group()) >= MIN_JOINED
        and matches[k].group().lower() not in STOPWORDS
        and matches[k + 1].group().lower() not in STOPWORDS
    ]
    if not pairs:
        return claim_text
    read = [_source_words(t.text) for t in turns]
    out: list[str] = []
    at = 0
    done = -1  # the last word already joined: a word joins at most once
    for k in pairs:
        if k <= done:
            continue
        first, second = matches[k].group().lower(), matches[k + 1].group().lower()
        joined = first + second
        written = next((c[joined] for c, _ in read if joined in c), None)
        if written is None or (
            any(first in w for _, w in read) and any(second in w for _, w in read)
        ):
            continue  # not closed in the source, or both parts are its words as well
        out.append(claim_text[at : matches[k].start()])
        out.append(written)
        at = matches[k + 1].end()
        done = k + 1
    if not out:
        return claim_text
    out.append(claim_text[at:])
    return "".join(out)


def _claim_lows(claim_text: str) -> list[str]:
    """The claim's letter runs (`_ALPHA`), lower-cased. Read from the analysis's own
    reading of the claim (`claim_words`, cached: `features.analyze` asks for the same
    folded text next, so the claim is tokenised once, not twice) when that reading is
    provably the same (session 15, round 3): an ASCII text that `fold_disguises` leaves
    as it is, whose `WORD` tokens are letters with at most an apostrophe inside. Every
    ASCII letter run then lies in one token (a letter not taken by the token before
    starts one), a token ends at a non-letter, and a token's apostrophe only ever stands
    between letters (`'[A-Za-z]++`), so the tokens split at their apostrophes are the
    letter runs in order, and a token's `low` is `raw.lower()` (ASCII). Anything else
    (a digit, a decimal point, "%", a non-ASCII or disguised text) is read by regex."""
    if claim_text.isascii():
        if fold_disguises(claim_text) == claim_text:
            raws = claim_words(claim_text).raws
            if "".join(raws).replace("'", "").isalpha():
                lows = claim_words(claim_text).lows
                return " ".join(lows).replace("'", " ").split()
        return list(map(str.lower, _ASCII_ALPHA.findall(claim_text)))
    return list(map(str.lower, _ALPHA.findall(claim_text)))


@functools.lru_cache(maxsize=SOURCE_WORDS_CACHE)
def _source_words(text: str) -> tuple[Mapping[str, str], frozenset[str]]:
    """The source's content words of `MIN_JOINED` letters or more (lower-cased, to their
    first written form), and all its words lower-cased. Shared between claims by the
    cache: read only."""
    words = _ALPHA.findall(text)
    closed: dict[str, str] = {}
    for w in words:
        low = w.lower()
        if len(w) >= MIN_JOINED and low not in STOPWORDS:
            closed.setdefault(low, w)
    return MappingProxyType(closed), frozenset(w.lower() for w in words)
