"""A time told on the other side of now: "two years ago" where the source says "in two
years", and back (session 15).

The amount and its unit are the source's, so the number, unit and duration rules find
nothing changed, and word overlap finds every word but "ago" (or "in"), a function word:
the claim read as supported although it moves a plan into the past or a past event into
the future. A closed class of English marks the direction of an amount of time:

* **past:** "<amount> ago", "<amount> before", "<amount> earlier";
* **future:** "in <amount>", "within <amount>", "<amount> from now", "<amount> later".

An amount is a number or "a"/"an" and a unit of time (`units.unit_of`: "two years", "a
week", "3 days"). The claim's amount in one direction contradicts the source when a
source sentence sharing words with the claim has the same amount (same number, same
unit) only in the other direction.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import number_value
from groundwire.guards.grounding.lexical.units import unit_of

__all__ = ["MARKS", "turned_times"]

_PAST_AFTER = frozenset(("ago", "before", "earlier"))
_FUTURE_BEFORE = frozenset(("in", "within"))
_FUTURE_AFTER = frozenset(("later",))
_ONE = frozenset(("a", "an"))
# the words whose presence may mark a direction (the caller's cheap test)
MARKS = _PAST_AFTER | _FUTURE_BEFORE | _FUTURE_AFTER | {"now"}


def _amounts(lows: Sequence[str]) -> list[tuple[str, str, str, str]]:
    """(value, unit, direction, as written) of each amount of time with a direction."""
    out: list[tuple[str, str, str, str]] = []
    n = len(lows)
    for k, low in enumerate(lows):
        value = "1" if low in _ONE else number_value(low)
        if value is None or k + 1 >= n:
            continue
        unit = unit_of(["1", lows[k + 1]], 0)
        if unit is None or unit[0] != "time":
            continue
        after = lows[k + 2] if k + 2 < n else ""
        before = lows[k - 1] if k else ""
        if before in _ONE and low not in _ONE:
            continue  # "a 2 day window": not an amount before now
        if after in _PAST_AFTER:
            direction, shown = "past", f"{low} {lows[k + 1]} {after}"
        elif before in _FUTURE_BEFORE:
            direction, shown = "future", f"{before} {low} {lows[k + 1]}"
        elif after in _FUTURE_AFTER or (after == "from" and k + 3 < n and lows[k + 3] == "now"):
            direction, shown = "future", f"{low} {lows[k + 1]} {after}"
        else:
            continue
        out.append((value, unit[1], direction, shown))
    return out


def turned_times(
    claim_lows: Sequence[str], sentences: Sequence[Sentence], shared: Sequence[Set[str]]
) -> list[tuple[str, str]]:
    """(claim's amount, source's amount) for each amount of time the claim puts on the
    other side of now than every source sentence sharing its words does (module
    docstring)."""
    mine = _amounts(claim_lows)
    if not mine:
        return []
    theirs: list[tuple[str, str, str, str]] = []
    for s, hit in zip(sentences, shared, strict=True):
        if hit and not MARKS.isdisjoint(s.lows):
            theirs += _amounts(s.lows)
    out: list[tuple[str, str]] = []
    for value, unit, direction, shown in mine:
        same = [t for t in theirs if t[0] == value and t[1] == unit]
        if same and all(t[2] != direction for t in same):
            out.append((shown, same[0][3]))
    return out
