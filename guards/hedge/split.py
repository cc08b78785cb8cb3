"""Hedge words broken apart by spaces: "I th ink", "prob ably", "per haps", "pro bab ly".

A word cut by a space (or by a hyphen and a line break, "th-\\nink", which the canonical
text makes "th- ink") still reads as the word, but each piece is a word of its own to a
pattern. `rejoin` puts the pieces back together, and only when

* the pieces, two or three of at least two letters each, together spell a hedge word of
  `_TARGETS` (the hedge adverbs `spelling` reads back from misspellings, and the
  first-person attitude verbs of the lexicon), and
* not all pieces are lexicon words themselves: "may be" is the modal and a verb, not a
  cut "maybe", and stays apart.

`needs_rejoin` is the test the detector runs on every claim: set operations on the few
claim words that are pieces of a split (the detector finds them in the one pass that
finds its trigger words), which hold a split only when all its pieces occur.

Session 14: a piece may also be written with digits for letters ("pr0b ably", "p3r
haps", "I th1 nk"): the two disguises were undone one at a time (a cut word of letters
only, a whole word with digits), so together they slipped past both. `leet_pieces` reads
a claim word of letters and digits as the piece it spells with its digits read as the
letters `spelling.py` reads them as, and `rejoin` accepts such a digit wherever its letter
stands; the joined word ("pr0bably") is then respelled as any digit-spelled word is.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable

from groundwire.guards.hedge.spelling import TYPO_TARGETS, lexicon

__all__ = ["SPLIT_PIECES", "leet_pieces", "needs_rejoin", "rejoin"]

_ATTITUDE_VERBS = ("think", "guess", "believe", "assume", "suppose", "suspect", "reckon")
_TARGETS = tuple(dict.fromkeys((*TYPO_TARGETS, *_ATTITUDE_VERBS, "unsure", "likely")))
_MIN_PIECE = 2  # a one-letter piece ("thin k") is not read: "a", "i" are everywhere


@functools.lru_cache(maxsize=1)
def _splits() -> dict[bytes, frozenset[tuple[bytes, ...]]]:
    """First piece -> the pieces that complete a target after it, in two or three pieces
    of at least `_MIN_PIECE` letters (as bytes, what `lexicon.byte_words` yields),
    leaving out splits whose pieces are all lexicon words."""
    vocabulary = lexicon()
    out: dict[bytes, set[tuple[bytes, ...]]] = {}
    for target in _TARGETS:
        n = len(target)
        cuts: list[tuple[int, ...]] = [(a,) for a in range(_MIN_PIECE, n - _MIN_PIECE + 1)]
        cuts += [
            (a, b)
            for a in range(_MIN_PIECE, n - 2 * _MIN_PIECE + 1)
            for b in range(a + _MIN_PIECE, n - _MIN_PIECE + 1)
        ]
        for cut in cuts:
            bounds = (0, *cut, n)
            pieces = [target[i:j] for i, j in itertools.pairwise(bounds)]
            if all(p in vocabulary for p in pieces):
                continue
            encoded = [p.encode() for p in pieces]
            out.setdefault(encoded[0], set()).add(tuple(encoded[1:]))
    return {head: frozenset(rests) for head, rests in out.items()}


# Built at import (a few milliseconds): the detector adds the pieces to the words it looks
# for in every claim.
_HEADS = frozenset(_splits())
SPLIT_PIECES = _HEADS.union(*(rest for rests in _splits().values() for rest in rests))
# first piece -> every piece that can follow it
_AFTER = {head: frozenset().union(*rests) for head, rests in _splits().items()}


def needs_rejoin(watched: frozenset[bytes]) -> list[tuple[str, ...]]:
    """The pieces of each split hedge word whose pieces all occur among `watched`: the
    claim's `byte_words` that are in a set holding `SPLIT_PIECES` (the detector's one
    intersection of the claim's words), so this is a few operations on a set of a
    handful of words; [] for nearly every claim."""
    heads = _HEADS.intersection(watched)
    if not heads:
        return []
    splits = _splits()
    return [
        tuple(p.decode() for p in (head, *rest))
        for head in heads
        if not _AFTER[head].isdisjoint(watched)  # "be" without "lieve", "li", ...: skip
        for rest in splits[head]
        if watched.issuperset(rest)
    ]


# The digits that stand for letters, as `spelling.py` reads them ("1" is an "i" or an "l").
_DIGIT_READINGS: dict[int, tuple[int, ...]] = {
    ord(d): tuple(map(ord, letters))
    for d, letters in {
        "0": "o", "1": "il", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"
    }.items()
}  # fmt: skip
# letter -> the digits that may stand for it, for `rejoin`'s pattern
_DIGITS_FOR: dict[str, str] = {}
for _digit, _letters in _DIGIT_READINGS.items():
    for _letter in _letters:
        _DIGITS_FOR[chr(_letter)] = _DIGITS_FOR.get(chr(_letter), "") + chr(_digit)


def leet_pieces(words: Iterable[bytes]) -> frozenset[bytes]:
    """The split pieces (`SPLIT_PIECES`) that `words` (a claim's `byte_words`, lower case)
    spell with their digits read as letters: "pr0b" is the piece "prob", "th1" the piece
    "thi". Only words of letters and digits with at least one of each are read."""
    found: set[bytes] = set()
    for word in words:
        if word.isalpha() or word.isdigit() or not word.isalnum():
            continue
        readings = [b""]
        for byte in word:
            letters = _DIGIT_READINGS.get(byte, (byte,))
            readings = [r + bytes((c,)) for r in readings for c in letters][:8]
        found.update(r for r in readings if r in SPLIT_PIECES)
    return frozenset(found)


def _piece_pattern(piece: str) -> str:
    """A piece as a pattern that also takes a digit for each letter a digit stands for."""
    return "".join(f"[{c}{_DIGITS_FOR[c]}]" if c in _DIGITS_FOR else re.escape(c) for c in piece)


def rejoin(text: str, splits: list[tuple[str, ...]]) -> str:
    """`text` with each of `splits` written as one word where its pieces stand next to
    each other in order, separated by a space or a hyphen and a space ("th ink",
    "th- ink", "pro bab ly")."""
    # the most pieces first: "sup pose dly" is "supposedly", not "suppose" and "dly"
    ordered = sorted(splits, key=len, reverse=True)
    alternatives = "|".join("(?:-? )".join(map(_piece_pattern, pieces)) for pieces in ordered)
    pattern = re.compile(rf"(?<![A-Za-z0-9])(?:{alternatives})(?![A-Za-z0-9])", re.IGNORECASE)
    return pattern.sub(lambda m: m.group(0).replace("-", "").replace(" ", ""), text)
