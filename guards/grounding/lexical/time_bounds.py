"""A time bound turned round: "The freeze lasts until May" where the source says "The
freeze has lasted since May" (session 18, the write-path red team).

"since X" puts X at the start of a span and "until X" at its end: the same X after the
other preposition tells the opposite span ("led the team until 2021" / "has led it since
2021"). The words are the source's and overlap reads a restatement. The two
prepositions are a closed class (a grammar fact): "until", "till", "til" end a span,
"since" starts one.

Read: a claim's "until"/"since" + the word after it, where an aligned source sentence
(`changed_terms.aligned`) writes the same word after a preposition of the other side and
none after one of the claim's side, is a contradiction (claim phrase, source phrase).
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import word_set
from groundwire.guards.grounding.lexical.turned_terms import first_turned

__all__ = ["TIME_BOUND_WORDS", "turned_time_bounds"]

_END = word_set("until till til")
_START = word_set("since")
TIME_BOUND_WORDS = _END | _START
_DETERMINERS = word_set("the a an this that last next")


def _bounds(lows: Sequence[str]) -> list[tuple[bool, str, int]]:
    """(ends the span, the bound's object word, position) for each bound in `lows`."""
    out: list[tuple[bool, str, int]] = []
    for k, low in enumerate(lows):
        if low not in TIME_BOUND_WORDS:
            continue
        j = k + 1
        while j < len(lows) and lows[j] in _DETERMINERS:
            j += 1
        if j < len(lows):
            out.append((low in _END, lows[j], k))
    return out


def turned_time_bounds(
    lows: Sequence[str], raws: Sequence[str], sources: Sequence[tuple[Sequence[str], Sequence[str]]]
) -> list[tuple[str, str]]:
    """(claim phrase, source phrase) for each "until"/"since" turned round (module
    docstring). `sources` are (lows, raws) of the aligned source sentences."""
    out: list[tuple[str, str]] = []
    for ends, obj, k in _bounds(lows):
        other = first_turned(
            (s_ends == ends, f"{s_raws[j]} {s_obj}")
            for s_lows, s_raws in sources
            for s_ends, s_obj, j in _bounds(s_lows)
            if s_obj == obj
        )
        if other is not None:
            out.append((f"{raws[k]} {obj}", other))
    return out
