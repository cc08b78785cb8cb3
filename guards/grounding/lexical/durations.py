"""A length of time the claim changed across units: "30 minutes" where the source says
"an hour" (session 15).

`changed_values.changed_amounts` reads a claim amount against the source's amounts in the
same unit ("2 hours" / "3 hours"), and the swapped-specific rule a number against a
number between the same neighbours. A duration restated in another unit slips past both,
and so does one the source gives with an article instead of a number ("an hour", "a
week", "half a day"): the claim's number is new, the source has no number there, and the
claim read as partial. This reads every length of time by its value:

* a duration is a number with a unit of time (`units.unit_of`: "30 minutes", "2h",
  "half an hour"), or "a"/"an"/"one" before a unit of time ("an hour", "a week"): one of
  it; its value is the number times the unit's length in seconds (a month 30 days, a
  year 365 days);
* a claim duration (a number the source never states, not bounded or approximated:
  `units.QUALIFIERS`, "at least") contradicts the source when a source sentence sharing
  words with the claim gives a duration and none gives one of the same value, within 5%
  (so "60 minutes" is "an hour", "a month" is "30 days" or "4 weeks" as one says it).

A time of day ("3 pm") is no duration, nor a number with a bare "s" ("1960s", "in her
30s": a decade as often as seconds), and a claim duration with no duration in a
sentence it shares words with is an added detail, as before.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import ClaimWords, number_in, number_value
from groundwire.guards.grounding.lexical.units import QUALIFIERS, unit_of, written

__all__ = ["changed_durations"]

_SECONDS = {
    "ns": 1e-9,
    "µs": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "min": 60.0,
    "h": 3600.0,
    "day": 86_400.0,
    "wk": 7 * 86_400.0,
    "mo": 30 * 86_400.0,
    "yr": 365 * 86_400.0,
}
# an article or "one" before a unit word: one of the unit ("an hour", "a week")
_ONE = frozenset(("a", "an", "one"))
# bounds and approximations of the source side too ("at least", "about", "over")
_BOUNDS = frozenset(("least", "most", "to", "than", "under", "over", "some"))
_TOLERANCE = 0.05


def _seconds(lows: Sequence[str], k: int, text: str, span: tuple[int, int]) -> float | None:
    """The length in seconds of the duration whose number (or article) is at k."""
    low = lows[k]
    value = number_value(low)
    if value is None:
        if low not in _ONE or k + 1 >= len(lows):
            return None
        unit = unit_of(["1", lows[k + 1]], 0)
        count = 1.0
    else:
        unit = unit_of(lows, k, text, span)
        try:
            count = float(value)
        except ValueError:
            return None
    if unit is None or unit[0] != "time":
        return None
    if unit[1] == "s" and _bare_s(lows, k):
        return None  # "1960s", "in her 30s": a decade, not seconds
    return count * _SECONDS[unit[1]]


def _bare_s(lows: Sequence[str], k: int) -> bool:
    """Whether the unit of the number at k is a bare "s" ("30s", "1960 s"), which writes a
    decade's plural as often as seconds."""
    low = lows[k]
    if low[:1].isdigit() and low.lstrip("0123456789.,") == "s":
        return True
    return k + 1 < len(lows) and lows[k + 1] == "s"


def _durations(s: Sentence) -> list[tuple[float, str]]:
    """(seconds, as written) of each duration of a source sentence."""
    out: list[tuple[float, str]] = []
    spans = None
    for j, low in enumerate(s.lows):
        if number_value(low) is None and low not in _ONE:
            continue
        if j and s.lows[j - 1] == "half" and low in _ONE:
            continue  # "half an hour": read at "half"
        spans = spans or s.word_spans()
        seconds = _seconds(s.lows, j, s.text, spans[j])
        if seconds is not None:
            out.append((seconds, written(s.raws, s.lows, j, s.text, spans[j])))
    return out


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= _TOLERANCE * max(a, b)


def changed_durations(
    words: ClaimWords,
    claim_text: str,
    sentences: Sequence[Sentence],
    shared: Sequence[Set[str]],
    source_numbers: Set[str | None],
) -> list[tuple[str, str]]:
    """(claim duration, a source duration) for each claim duration that no source
    sentence sharing its words gives, where one gives another (module docstring)."""
    lows, nums = words.lows, words.numbers
    wanted: list[tuple[int, float]] = []
    for i, value in enumerate(nums):
        if value is None or number_in(value, source_numbers):
            continue
        before = lows[i - 1] if i else ""
        if before in QUALIFIERS or before in _BOUNDS:
            continue
        seconds = _seconds(lows, i, claim_text, words.spans[i])
        if seconds is not None and seconds > 0:
            wanted.append((i, seconds))
    if not wanted:
        return []
    theirs: list[tuple[float, str]] = []
    for s, hit in zip(sentences, shared, strict=True):
        if hit:
            theirs += _durations(s)
    if not theirs:
        return []
    out: list[tuple[str, str]] = []
    for i, seconds in wanted:
        if any(_same(seconds, other) for other, _ in theirs):
            continue
        mine = written(words.raws, lows, i, claim_text, words.spans[i])
        out.append((mine, theirs[0][1]))
    return out
