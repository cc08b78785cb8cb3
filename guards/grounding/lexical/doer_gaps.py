"""A doer not right before its verb: "Ana has approved the migration", "Ben already
approved it" (session 17, the write-path red team).

`passive_actors.acts` reads the doer of an active past as the name right before a past
in "-ed" or an irregular past ("Ben approved it", "Ana wrote it"). A perfect ("Ben has
approved it") or an adverb ("Ben already approved it") puts a word between the name and
its verb, so a source that gave the act to another doer told nothing, and "The
migration was approved by Ana" against "Ana has rejected the migration; Ben has
approved it" was supported.

`verb_after_doer`: the position of the verb after a name at `i`, past at most one
perfect auxiliary ("has", "have", "had") and then at most one adverb of the closed
class the passive rule already skips (`name_roles._ADVERBS`: "also", "later",
"already", "just", ...), each written right after the one before (no punctuation
between: "Ana, who has ..." is no doer's verb). A negation is none of them ("Ben has not
approved it" tells no act, as before).
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.name_roles import _ADVERBS
from groundwire.guards.grounding.lexical.text import word_set

__all__ = ["verb_after_doer"]

_PERFECT = word_set("has have had")


def verb_after_doer(
    lows: Sequence[str], spans: Sequence[tuple[int, int]], text: str, i: int
) -> int:
    """The position of the verb of the doer at `i` (module docstring): `i + 1` when no
    auxiliary or adverb stands between them."""
    v = i + 1
    n = len(lows)
    if v < n and lows[v] in _PERFECT and not text[spans[v - 1][1] : spans[v][0]].strip():
        v += 1
    if v < n and lows[v] in _ADVERBS and not text[spans[v - 1][1] : spans[v][0]].strip():
        v += 1
    return v
