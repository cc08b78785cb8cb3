"""A change told by its cause as the subject: "The cache doubled our read throughput"
where the source says "Our read throughput doubled thanks to the cache" (session 17,
the write-path red team; rt16-109, open since session 16).

Many verbs of change are both causative and inchoative ("the cache doubled the
throughput" / "the throughput doubled"): the causative makes the cause its subject and
the changed thing its object, the inchoative makes the changed thing its subject and
names the cause after "thanks to", "because of", "due to" or "owing to". The two tell
one fact, but the role rules (`roles.py`) read the claim's subject and object in the
source's other order as a swap, and a faithful memory was blocked.

`caused_words`: a claim "<A> <verb> <B>" (the content words before and after one claim
word) and a source sentence with the same verb stem, every stem of B before it, and
after it a cause marker followed by every stem of A: the lower-case claim words of A
and B, whose swap conflicts `features.analyze` then drops. The markers are a closed
class of English; "The throughput doubled the cache" against the source is still a swap
(B is not before the source's verb).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence

__all__ = ["MARKERS", "caused_words"]

# the first word of each cause marker, and the word after it
_CAUSES = {"thanks": "to", "because": "of", "due": "to", "owing": "to"}
MARKERS = frozenset(_CAUSES)


def _cause_at(lows: Sequence[str], start: int) -> int | None:
    """The position after the first cause marker from `start` on, else None."""
    for k in range(start, len(lows) - 1):
        if _CAUSES.get(lows[k]) == lows[k + 1]:
            return k + 2
    return None


def caused_words(
    lows: Sequence[str],
    stems: Sequence[str],
    content: Sequence[bool],
    sentences: Sequence[Sentence],
) -> frozenset[str]:
    """The claim words of a causative the source tells as an inchoative with its cause
    (module docstring); empty when there is none."""
    at = list(itertools.compress(range(len(lows)), content))
    for s in sentences:
        if MARKERS.isdisjoint(s.lows):
            continue
        for n, v in enumerate(at[1:-1], start=1):
            verb = stems[v]
            if verb not in s.stems:
                continue
            cause = {stems[i] for i in at[:n]}
            changed = {stems[i] for i in at[n + 1 :]}
            for w, st in enumerate(s.word_stems):
                if st != verb:
                    continue
                before = {s.word_stems[i] for i in range(w) if s.content[i]}
                after = _cause_at(s.lows, w + 1)
                if after is None or not changed <= before:
                    continue
                if cause <= {s.word_stems[i] for i in range(after, len(s.lows)) if s.content[i]}:
                    return frozenset(lows[i] for i in at if i != v)
    return frozenset()
