"""Percent told for percentage points, or the other way: "Conversion rose by 5%" where
the source says "Conversion rose by 5 percentage points" (session 18, the write-path red
team).

A change of a rate in percentage points is its difference ("from 10 % to 15 %" is 5
points), a change in percent its ratio ("from 10 % to 15 %" is 50 %): the same number in
the other unit is another fact. The number and most words are the source's, so overlap
reads a restatement. The units are a closed class: "%", "percent", "per cent" against
"percentage point(s)", "point(s)" after a number, "pp", "pts".

Read: a claim number in one of the two units where an aligned source sentence
(`changed_terms.aligned`) gives the same number in the other and none in the claim's is
a contradiction (claim phrase, source phrase).
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import same_number, word_set
from groundwire.guards.grounding.lexical.turned_terms import first_turned

__all__ = ["PERCENT_WORDS", "swapped_percentages", "unit_of"]

_PERCENT = word_set("% percent")
_POINTS = word_set("point points pp pts")
PERCENT_WORDS = _PERCENT | _POINTS | {"percentage", "per"}


def unit_of(lows: Sequence[str], k: int) -> str | None:
    """ "percent" or "points" for the number at k, else None."""
    nxt = lows[k + 1] if k + 1 < len(lows) else ""
    after = lows[k + 2] if k + 2 < len(lows) else ""
    if nxt in _PERCENT or (nxt == "per" and after == "cent"):
        return "percent"
    if nxt == "percentage" and after in ("point", "points"):
        return "points"
    if nxt in _POINTS:
        return "points"
    return None


def swapped_percentages(
    lows: Sequence[str],
    nums: Sequence[str | None],
    raws: Sequence[str],
    sources: Sequence[tuple[Sequence[str], Sequence[str | None], Sequence[str]]],
) -> list[tuple[str, str]]:
    """(claim phrase, source phrase) for each number told in the other unit."""
    out: list[tuple[str, str]] = []
    for i, value in enumerate(nums):
        if value is None:
            continue
        mine = unit_of(lows, i)
        if mine is None:
            continue
        other = first_turned(
            (
                theirs == mine,
                " ".join(s_raws[j : j + 3 if s_lows[j + 1] == "percentage" else j + 2]),
            )
            for s_lows, s_nums, s_raws in sources
            for j, sv in enumerate(s_nums)
            if same_number(sv, value)
            for theirs in (unit_of(s_lows, j),)
            if theirs is not None
        )
        if other is not None:
            out.append((" ".join(raws[i : i + 2]), other))
    return out
