"""Whose "I" grounds a claim's "I": a first-person claim needs a first-person source
sentence about the same thing.

The first-person signal (`features.analyze`: "first-person statement the source does not
make") was read against the whole source at once: any "I" or "my" anywhere in it let every
first-person statement of the claim pass. A document quoting a critic ("I found the
ending dull"), a song title ("How You Remind Me") or a fun fact's quotation ("in my heart
of hearts") then made "I think I would rate this movie average" or "I believe it is called
The Wolf of Wall Street" the source's own words, though the speaker of the claim speaks of
themself and the document of someone else. The rule: a claim sentence with a first-person
pronoun (as written: `person.first_person_in`) is held only by a source sentence that has
one too and shares one of its content stems (the pronoun aside). A claim all of whose
first-person sentences are so held reads as before; one that has a first-person sentence no
such source sentence holds is a first-person statement the source does not make.
"""

from __future__ import annotations

from typing import cast

from groundwire.guards.grounding.lexical.evidence import Evidence
from groundwire.guards.grounding.lexical.person import first_person_in
from groundwire.guards.grounding.lexical.text import FIRST_PERSON, ClaimWords

__all__ = ["first_person_unheld"]

# where `_first_person_stems` keeps its answer in `Evidence.derived`
_KEY = "first_person_source.stems"


def _first_person_stems(ev: Evidence) -> frozenset[str]:
    """The content stems of the first-person source sentences (one set: a claim sentence
    shares a stem with one of them iff it shares one with their union, so a claim of
    thousands of sentences against thousands of such source sentences is read in one
    pass), read once per evidence and kept with it."""
    memo = ev.derived
    if memo is None:
        memo = ev.derived = {}
    got = memo.get(_KEY)
    if got is None:
        got = memo[_KEY] = frozenset(
            st
            for s in ev.sentences
            if not FIRST_PERSON.isdisjoint(s.lows) and first_person_in(s.raws, s.lows)
            for st, content, low in zip(s.word_stems, s.content, s.lows, strict=True)
            if content and low not in FIRST_PERSON
        )
    return cast("frozenset[str]", got)


def first_person_unheld(cw: ClaimWords, text: str, ev: Evidence) -> bool:
    """Whether a first-person sentence of the claim (`cw`, words of `text`) is held by no
    first-person source sentence sharing a content stem with it (module docstring).
    Only for a source that has a first-person sentence (`ev.first`)."""
    if FIRST_PERSON.isdisjoint(cw.lows):
        return False
    held = _first_person_stems(ev)
    start = 0
    n = len(cw.lows)
    for k in range(n + 1):
        last = k == n or any(c in ".!?" for c in text[cw.spans[k - 1][1] : cw.spans[k][0]])
        if k == 0 or not last:
            continue
        positions = range(start, k)
        if first_person_in(cw.raws, cw.lows, positions=positions):
            stems = {
                cw.stems[i] for i in positions if cw.content[i] and cw.lows[i] not in FIRST_PERSON
            }
            if stems and held.isdisjoint(stems):
                return True
        start = k
    return False
