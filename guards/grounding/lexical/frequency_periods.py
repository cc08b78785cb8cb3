"""A frequency changed by its period: "Deploys happen every day" where the source says
"every other day", "The sync runs biweekly" where it says "weekly" (session 18, the
write-path red team).

A frequency is read as the time between two occurrences, in days: the adverbs of period
("hourly", "daily", "nightly", "weekly", "fortnightly", "monthly", "quarterly",
"yearly", "annually"; "biweekly" and "bimonthly" both ways, twice per or every other
period, as English uses them), "every [other | N] <unit>", and "<N> times a / per
<unit>" ("twice a week", "once a month"); a count before an adverb divides its period
("twice monthly" is "twice a month"). These words are a closed class of English
(the calendar's units and the adverbs built on them). Neither side's words are missing
("every" and "day" are in "every other day"), so overlap reads a restatement.

Read: a claim frequency none of whose periods any frequency of an aligned source sentence
(`changed_terms.aligned`) has (within 5 %), where such a sentence gives one, is a
contradiction (the claim's words, the source's).
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import number_value

__all__ = ["FREQUENCY_WORDS", "changed_frequencies", "frequencies"]

_UNIT_DAYS = {
    "hour": 1 / 24,
    "day": 1.0,
    "night": 1.0,
    "week": 7.0,
    "fortnight": 14.0,
    "month": 30.0,
    "quarter": 91.0,
    "year": 365.0,
}
_UNITS = {**_UNIT_DAYS, **{u + "s": d for u, d in _UNIT_DAYS.items()}}
_ADVERBS: dict[str, tuple[float, ...]] = {
    "hourly": (1 / 24,),
    "daily": (1.0,),
    "nightly": (1.0,),
    "weekly": (7.0,),
    "fortnightly": (14.0,),
    "monthly": (30.0,),
    "quarterly": (91.0,),
    "yearly": (365.0,),
    "annually": (365.0,),
    "biweekly": (3.5, 14.0),
    "bimonthly": (15.0, 60.0),
    "semiannually": (182.5,),
}
FREQUENCY_WORDS = frozenset(_ADVERBS) | {"every", "times", "twice", "once", "thrice"}
_TRIGGERS = frozenset(_ADVERBS) | {"every", "a", "per"}


_COUNTS = {"once": 1.0, "twice": 2.0, "thrice": 3.0}


def _count_before(lows: Sequence[str], k: int) -> tuple[float, int]:
    """(times, start) of a count right before the adverb at k ("twice monthly", "3 times
    weekly"); (1, k) when there is none."""
    if k and lows[k - 1] in _COUNTS:
        return _COUNTS[lows[k - 1]], k - 1
    if k >= 2 and lows[k - 1] == "times":
        v = number_value(lows[k - 2])
        if v is not None and float(v) > 0:
            return float(v), k - 2
    return 1.0, k


def frequencies(lows: Sequence[str]) -> list[tuple[tuple[float, ...], int, int]]:
    """(periods in days, start, end) of each frequency of `lows` (module docstring)."""
    out: list[tuple[tuple[float, ...], int, int]] = []
    n = len(lows)
    for k in [i for i, w in enumerate(lows) if w in _TRIGGERS]:
        low = lows[k]
        if low in _ADVERBS:
            # "twice monthly", "three times weekly": a count before the adverb divides its
            # period (audit of session 18: "twice monthly" read as "monthly")
            count, start = _count_before(lows, k)
            out.append((tuple(p / count for p in _ADVERBS[low]), start, k + 1))
        elif low == "every" and k + 1 < n:
            nxt = lows[k + 1]
            if nxt in _UNITS:
                out.append(((_UNITS[nxt],), k, k + 2))
            elif nxt == "other" and k + 2 < n and lows[k + 2] in _UNITS:
                out.append(((2 * _UNITS[lows[k + 2]],), k, k + 3))
            elif k + 2 < n and lows[k + 2] in _UNITS:
                v = number_value(nxt)
                if v is not None and float(v) > 0:
                    out.append(((float(v) * _UNITS[lows[k + 2]],), k, k + 3))
        elif low in ("a", "per") and k > 0 and k + 1 < n and lows[k + 1] in _UNIT_DAYS:
            prev = lows[k - 1]
            times: float | None = None
            if prev == "times" and k >= 2:
                v = number_value(lows[k - 2])
                times = float(v) if v is not None else None
            elif prev in ("once", "twice", "thrice"):
                times = {"once": 1.0, "twice": 2.0, "thrice": 3.0}[prev]
            if times:
                start = k - 2 if prev == "times" else k - 1
                out.append(((_UNIT_DAYS[lows[k + 1]] / times,), start, k + 2))
    return out


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 0.05 * max(a, b)


def changed_frequencies(
    lows: Sequence[str], raws: Sequence[str], sources: Sequence[tuple[Sequence[str], Sequence[str]]]
) -> list[tuple[str, str]]:
    """(claim's words, source's) for each claim frequency no aligned source frequency
    shares (module docstring). `sources`: (lows, raws) of the aligned sentences."""
    mine = frequencies(lows)
    if not mine:
        return []
    theirs = [(p, " ".join(r[a:b])) for s_lows, r in sources for p, a, b in frequencies(s_lows)]
    if not theirs:
        return []
    out: list[tuple[str, str]] = []
    for periods, a, b in mine:
        if any(_same(x, y) for x in periods for p, _ in theirs for y in p):
            continue
        out.append((" ".join(raws[a:b]), theirs[0][1]))
    return out
