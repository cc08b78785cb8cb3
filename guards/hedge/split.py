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
"""

from __future__ import annotations

import functools
import itertools
import re

from groundwire.guards.hedge.spelling import TYPO_TARGETS, lexicon

__all__ = ["SPLIT_PIECES", "needs_rejoin", "rejoin"]

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


def rejoin(text: str, splits: list[tuple[str, ...]]) -> str:
    """`text` with each of `splits` written as one word where its pieces stand next to
    each other in order, separated by a space or a hyphen and a space ("th ink",
    "th- ink", "pro bab ly")."""
    # the most pieces first: "sup pose dly" is "supposedly", not "suppose" and "dly"
    ordered = sorted(splits, key=len, reverse=True)
    alternatives = "|".join("(?:-? )".join(map(re.escape, pieces)) for pieces in ordered)
    pattern = re.compile(rf"(?<![A-Za-z0-9])(?:{alternatives})(?![A-Za-z0-9])", re.IGNORECASE)
    return pattern.sub(lambda m: m.group(0).replace("-", "").replace(" ", ""), text)
