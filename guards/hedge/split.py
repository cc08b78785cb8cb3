"""Hedge words broken in two by a space: "I th ink", "prob ably", "per haps", "be lieve".

A word cut by a space (or by a hyphen and a line break, "th-\\nink", which the canonical
text makes "th- ink") still reads as the word, but each piece is a word of its own to a
pattern. `rejoin` puts the pieces back together, and only when

* the two pieces together spell a hedge word of `_TARGETS` (the hedge adverbs
  `spelling` reads back from misspellings, and the first-person attitude verbs of the
  lexicon), and
* not both pieces are lexicon words themselves: "may be" is the modal and a verb, not a
  cut "maybe", and stays apart.

Three or more pieces ("pro bab ly") are not read. `needs_rejoin` is the test the detector
runs on every claim: set operations on the few claim words that are pieces of a split
(the detector finds them in the one pass that finds its trigger words), which hold a
split only when a possible first piece and one of its possible second pieces both occur.
"""

from __future__ import annotations

import functools
import re

from groundwire.guards.hedge.spelling import TYPO_TARGETS, lexicon

__all__ = ["SPLIT_PIECES", "needs_rejoin", "rejoin"]

_ATTITUDE_VERBS = ("think", "guess", "believe", "assume", "suppose", "suspect", "reckon")
_TARGETS = (*TYPO_TARGETS, *_ATTITUDE_VERBS, "unsure", "likely")
_MIN_PIECE = 2  # a one-letter piece ("thin k") is not read: "a", "i" are everywhere


@functools.lru_cache(maxsize=1)
def _splits() -> dict[bytes, frozenset[bytes]]:
    """First piece -> the second pieces that complete a target with it (as bytes, what
    `lexicon.byte_words` yields), leaving out splits into two lexicon words."""
    vocabulary = lexicon()
    out: dict[bytes, set[bytes]] = {}
    for target in _TARGETS:
        for cut in range(_MIN_PIECE, len(target) - _MIN_PIECE + 1):
            head, tail = target[:cut], target[cut:]
            if head in vocabulary and tail in vocabulary:
                continue
            out.setdefault(head.encode(), set()).add(tail.encode())
    return {head: frozenset(tails) for head, tails in out.items()}


# Built at import (a few milliseconds): the detector adds the pieces to the words it looks
# for in every claim.
_HEADS = frozenset(_splits())
SPLIT_PIECES = _HEADS.union(*_splits().values())


def needs_rejoin(watched: frozenset[bytes]) -> list[tuple[str, str]]:
    """The (first, second) piece pairs of a split hedge word that both occur among
    `watched`: the claim's `byte_words` that are in a set holding `SPLIT_PIECES` (the
    detector's one intersection of the claim's words), so this is a few operations on a
    set of a handful of words; [] for nearly every claim."""
    heads = _HEADS.intersection(watched)
    if not heads:
        return []
    splits = _splits()
    tails = frozenset().union(*(splits[h] for h in heads)).intersection(watched)
    if not tails:
        return []
    return [(h.decode(), t.decode()) for h in heads for t in splits[h] & tails]


def rejoin(text: str, pairs: list[tuple[str, str]]) -> str:
    """`text` with each of `pairs` written as one word where the two pieces stand next to
    each other, separated by a space or a hyphen and a space ("th ink", "th- ink")."""
    alternatives = "|".join(f"{re.escape(h)}(?:-? ){re.escape(t)}" for h, t in pairs)
    pattern = re.compile(rf"(?<![A-Za-z0-9])(?:{alternatives})(?![A-Za-z0-9])", re.IGNORECASE)
    return pattern.sub(lambda m: m.group(0).replace("-", "").replace(" ", ""), text)
