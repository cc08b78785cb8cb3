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

A length written in parts is read whole (session 15b, precision): a fraction of the unit
("an hour and a half", "one and a half hours", "a quarter of an hour", "three quarters of
an hour") and a length in two units ("an hour and fifteen minutes", "1 hour 30
minutes") are one duration of their sum. Read by parts, "an hour and a half" was "an
hour", and "90 minutes" its contradiction.

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


def _unit_and_count(
    lows: Sequence[str], k: int, text: str, span: tuple[int, int]
) -> tuple[float, float] | None:
    """(count, seconds of the unit) of the duration whose number (or article) is at k."""
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
    return count, _SECONDS[unit[1]]


# A fraction of a unit written in words: "a quarter of an hour", "an hour and a half".
_FRACTIONS = {"half": 0.5, "quarter": 0.25, "quarters": 0.25, "third": 1 / 3, "thirds": 1 / 3}


def _unit_end(lows: Sequence[str], k: int) -> int:
    """The position after the unit of the duration whose number (or article) is at k: the
    unit written onto a number in digits ("2h"), past "half a" ("half an hour"), or the
    next word."""
    low = lows[k]
    if low[:1].isdigit() and not low.replace(".", "").replace(",", "").isdigit():
        return k + 1
    if low == "half" and k + 1 < len(lows) and lows[k + 1] in ("a", "an"):
        return k + 3
    return k + 2


def _length_at(
    lows: Sequence[str], k: int, text: str, spans: Sequence[tuple[int, int]]
) -> tuple[int, int, float, float] | None:
    """(first position, end position, seconds, seconds of the unit) of the whole length of
    time whose number or article is at k, read with its fractions (module docstring)."""
    n = len(lows)
    value = number_value(lows[k])
    # "one and a half hours", "2 and a quarter days": a mixed number before the unit
    if (
        value is not None
        and lows[k] not in _FRACTIONS
        and k + 4 < n
        and tuple(lows[k + 1 : k + 3]) == ("and", "a")
        and lows[k + 3] in _FRACTIONS
    ):
        unit = unit_of(["1", lows[k + 4]], 0)
        if unit is not None and unit[0] == "time":
            try:
                count = float(value) + _FRACTIONS[lows[k + 3]]
            except ValueError:
                return None
            return k, k + 5, count * _SECONDS[unit[1]], _SECONDS[unit[1]]
    read = _unit_and_count(lows, k, text, spans[k])
    if read is None:
        return None
    count, unit_seconds = read
    first, end = k, _unit_end(lows, k)
    # "a quarter of an hour", "three quarters of an hour": a fraction of one unit
    if k >= 2 and lows[k] in ("a", "an") and lows[k - 1] == "of" and lows[k - 2] in _FRACTIONS:
        count *= _FRACTIONS[lows[k - 2]]
        first = k - 2
        times = number_value(lows[k - 3]) if k >= 3 and lows[k - 3] not in _ONE else None
        if times is not None:
            try:
                count *= float(times)
            except ValueError:
                return None
            first = k - 3
    # "an hour and a half", "two days and three quarters": a fraction after the unit
    elif tuple(lows[end : end + 2]) == ("and", "a") and end + 2 < n and lows[end + 2] in _FRACTIONS:
        count += _FRACTIONS[lows[end + 2]]
        end += 3
    elif end + 2 < n and lows[end] == "and" and lows[end + 2] == "quarters":
        times = number_value(lows[end + 1])
        if times is not None:
            try:
                count += float(times) * 0.25
            except ValueError:
                return None
            end += 3
    return first, end, count * unit_seconds, unit_seconds


def _lengths(
    lows: Sequence[str], text: str, spans: Sequence[tuple[int, int]]
) -> list[tuple[int, int, float]]:
    """(first position, end position, seconds) of each length of time of a text, a length
    in two units ("an hour and fifteen minutes", "1 hour 30 minutes") summed."""
    out: list[tuple[int, int, float]] = []
    j, n = 0, len(lows)
    while j < n:
        if number_value(lows[j]) is None and lows[j] not in _ONE:
            j += 1
            continue
        found = _length_at(lows, j, text, spans)
        if found is None:
            j += 1
            continue
        first, end, seconds, unit_seconds = found
        while end < n:  # the smaller unit after it, with or without "and"
            nxt = end + 1 if lows[end] == "and" else end
            if nxt >= n or (number_value(lows[nxt]) is None and lows[nxt] not in _ONE):
                break
            more = _length_at(lows, nxt, text, spans)
            if more is None or more[0] != nxt or more[3] >= unit_seconds:
                break
            _, end, extra, unit_seconds = more
            seconds += extra
        out.append((first, end, seconds))
        j = end
    return out


def _bare_s(lows: Sequence[str], k: int) -> bool:
    """Whether the unit of the number at k is a bare "s" ("30s", "1960 s"), which writes a
    decade's plural as often as seconds."""
    low = lows[k]
    if low[:1].isdigit() and low.lstrip("0123456789.,") == "s":
        return True
    return k + 1 < len(lows) and lows[k + 1] == "s"


def _durations(s: Sentence) -> list[tuple[float, str]]:
    """(seconds, as written) of each duration of a source sentence."""
    if not any(number_value(low) is not None or low in _ONE for low in s.lows):
        return []
    spans = s.word_spans()
    return [
        (seconds, _as_written(s.raws, s.lows, first, end, s.text, spans))
        for first, end, seconds in _lengths(s.lows, s.text, spans)
    ]


def _as_written(
    raws: Sequence[str],
    lows: Sequence[str],
    first: int,
    end: int,
    text: str,
    spans: Sequence[tuple[int, int]],
) -> str:
    """A length of time as written: its number with its unit (`units.written`), or all its
    words when it is written in parts ("an hour and a half")."""
    if end - first <= 2:
        return written(raws, lows, first, text, spans[first])
    return " ".join(raws[first:end])


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
    if all(value is None or number_in(value, source_numbers) for value in nums):
        return []  # most claims: no number the source does not state
    wanted: list[tuple[int, int, float]] = []
    for first, end, seconds in _lengths(lows, claim_text, words.spans):
        values = [v for v in nums[first:end] if v is not None]
        if not values or all(number_in(v, source_numbers) for v in values):
            continue  # "an hour" (no number), or numbers the source states
        before = lows[first - 1] if first else ""
        if before in QUALIFIERS or before in _BOUNDS or seconds <= 0:
            continue
        wanted.append((first, end, seconds))
    if not wanted:
        return []
    theirs: list[tuple[float, str]] = []
    for s, hit in zip(sentences, shared, strict=True):
        if hit:
            theirs += _durations(s)
    if not theirs:
        return []
    out: list[tuple[str, str]] = []
    for first, end, seconds in wanted:
        if any(_same(seconds, other) for other, _ in theirs):
            continue
        mine = _as_written(words.raws, lows, first, end, claim_text, words.spans)
        out.append((mine, theirs[0][1]))
    return out
