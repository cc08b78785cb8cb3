"""A number is read with its unit: "200 ms" is not "200 seconds", "3 am" is not "3 pm",
"5 TB" is not "5 GB". Word overlap finds the number in the source and calls the claim
supported; the unit beside it says otherwise.

A unit is the word right after a number ("200 ms", "3 pm"; past a scale word: "5 million
euros") or the letters written onto it ("200ms", "3pm"), looked up in a small table of
units of measurement by dimension (time, time of day, data size, frequency, money). A
currency is also the sign written against the number ("$5", "5€"): the sign is no word,
so it is read from the text beside the number. The claim's number with its unit
contradicts the source when a source sentence sharing words with the claim has the same
number with another unit of the same dimension, and none has it with the claim's unit (or
a synonym: "ms" = "milliseconds", "$" = "dollars"). A number without a unit on either
side is not compared here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from groundwire.guards.grounding.lexical.dates import written_dates
from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import (
    ClaimWords,
    number_in,
    number_value,
    same_number,
    word_set,
)

__all__ = [
    "QUALIFIERS",
    "bound_swaps",
    "claim_dates",
    "counts_one",
    "date_swaps",
    "half_of",
    "unit_of",
    "unit_swaps",
    "written",
]


def _table() -> dict[str, tuple[str, str]]:
    """word -> (dimension, the unit it names)."""
    groups = {
        "time": {
            "ns": "nanosecond nanoseconds",
            "µs": "microsecond microseconds",
            "ms": "millisecond milliseconds msec msecs",
            "s": "sec secs second seconds",
            "min": "mins minute minutes",
            "h": "hr hrs hour hours",
            "day": "days",
            "wk": "week weeks",
            "mo": "month months",
            "yr": "yrs year years",
        },
        "time of day": {"am": "", "pm": ""},
        "data": {
            "byte": "bytes",
            "kb": "kilobyte kilobytes kib",
            "mb": "megabyte megabytes mib",
            "gb": "gigabyte gigabytes gib",
            "tb": "terabyte terabytes tib",
            "pb": "petabyte petabytes pib",
        },
        "frequency": {"hz": "hertz", "khz": "kilohertz", "mhz": "megahertz", "ghz": "gigahertz"},
        # "$" is every dollar: "$5" and "5 USD" agree; "¥" (yen or yuan) is left out
        "money": {
            "dollar": "dollars usd bucks",
            "euro": "euros eur",
            "pound": "pounds gbp sterling",
            "rupee": "rupees inr",
            "cent": "cents",
        },
    }
    out: dict[str, tuple[str, str]] = {}
    for dimension, units in groups.items():
        for unit, others in units.items():
            for word in (unit, *others.split()):
                out[word] = (dimension, unit)
    return out


_UNITS = _table()
_UNIT_WORDS = frozenset(_UNITS)
_SIGNS = {"$": "dollar", "€": "euro", "£": "pound", "₹": "rupee", "¢": "cent"}
# Words that scale a number and stand between it and its unit ("5 million euros").
_SCALES = frozenset(("thousand", "million", "billion", "trillion", "mln", "bn", "k"))


def _unit(
    lows: Sequence[str], k: int, text: str = "", span: tuple[int, int] | None = None
) -> tuple[str, str] | None:
    """(dimension, unit) of the number at position k: a currency sign against it in
    `text` ("$5", "5€"; `span` is the number's place), else letters written onto it
    ("200ms"), else the word after it ("200 ms"), past a scale word."""
    if span is not None:
        start, end = span
        sign = _SIGNS.get(text[start - 1 : start] if start else "") or _SIGNS.get(
            text[end : end + 1]
        )
        if sign is not None:
            return ("money", sign)
    tail = _tail(lows[k])
    if tail:
        return _UNITS.get(tail)
    after_at = k + 1
    if half_of(lows, k):
        after_at += 1  # "half an hour", "half a million dollars": past the article
    if after_at < len(lows) and lows[after_at] in _SCALES:
        after_at += 1
    if after_at < len(lows):
        after = lows[after_at]
        if after in ("a", "p") and after_at + 1 < len(lows) and lows[after_at + 1] == "m":
            after += "m"  # "3 a.m." is read as three words: 3, a, m
        return _UNITS.get(after)
    return None


def half_of(lows: Sequence[str], k: int) -> bool:
    """Whether the word at k is "half" before "a" or "an" ("half an hour", "half a
    million"): the thing after the article is what it halves."""
    return lows[k] == "half" and k + 1 < len(lows) and lows[k + 1] in ("a", "an")


_ONE = frozenset(("a", "an", "every", "each", "per"))


def counts_one(lows: Sequence[str]) -> bool:
    """Whether some "a"/"an"/"every"/"each"/"per" is followed by a unit word ("an hour",
    "every day", "per month"): a number of one."""
    return (
        not _UNIT_WORDS.isdisjoint(lows)
        and not _ONE.isdisjoint(lows)
        and any(low in _ONE and _unit_after(lows, k) for k, low in enumerate(lows))
    )


def _unit_after(lows: Sequence[str], k: int) -> bool:
    """Whether the word after position k names a unit (so "a"/"an" at k counts one)."""
    return k + 1 < len(lows) and lows[k + 1] in _UNITS


def _tail(word: str) -> str:
    """The letters written onto a number in digits ("ms" of "200ms"); "" for a number
    word ("two") or a bare number."""
    return word.lstrip("0123456789.,") if word[:1].isdigit() else ""


def unit_swaps(
    words: ClaimWords,
    claim_text: str,
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
    source_numbers: set[str] | frozenset[str],
) -> list[tuple[str, str]]:
    """(claim number and unit, source number and unit) for each number of the claim that
    the source has only with another unit of the same dimension (module docstring);
    `source_numbers`: every number the source states."""
    out: list[tuple[str, str]] = []
    lows, nums = words.lows, words.numbers
    for i, value in enumerate(nums):
        one = False
        if value is None:
            if lows[i] not in _ONE or not _unit_after(lows, i):
                continue
            if i and words.raws[i - 1].lower() == "half":
                continue  # "half an hour": a half, read as its number (`half_of`)
            value, one = "1", True  # "an hour", "a day": one of the unit
        elif not number_in(value, source_numbers):
            continue
        mine = _unit(lows, i, claim_text, words.spans[i])
        if mine is None:
            continue
        other = _other_unit(value, mine, sentences, shared)
        if other is None and one and not _difference(lows, i):
            # "every hour" where the source says "every 2 hours": one of the unit is a
            # number too, and the source gives another
            other = _other_count(mine, sentences, shared)
        if other is not None:
            out.append((_written(words.raws, lows, i, claim_text, words.spans[i]), other))
    return out


def _difference(lows: Sequence[str], k: int) -> bool:
    """Whether "a"/"every" + unit at k is a difference ("a month longer", "an hour
    later", "a day more"), not a value."""
    after = lows[k + 2] if k + 2 < len(lows) else ""
    return after in ("more", "less", "later", "earlier", "before", "after") or (
        len(after) > 4 and after.endswith("er")
    )


def _words_of(
    sentences: Sequence[Sentence], shared: Sequence[set[str] | frozenset[str]]
) -> Iterator[tuple[Sentence, int, str]]:
    """(sentence, position, lower-case word) of every word of the sentences that share
    content words with the claim (`shared[i]` non-empty), in order."""
    for s, hit in zip(sentences, shared, strict=True):
        if hit:
            for j, low in enumerate(s.lows):
                yield s, j, low


def _other_count(
    mine: tuple[str, str],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
) -> str | None:
    """The first mention of another number than one with `mine`'s unit, unless some
    mention has one of it ("an hour", "1 hour", "every hour")."""
    other: str | None = None
    for s, j, low in _words_of(sentences, shared):
        if half_of(s.lows, j) and _unit_after(s.lows, j + 1) and _UNITS[s.lows[j + 2]] == mine:
            other = other or " ".join(s.raws[j : j + 3])  # "half an hour": a half
            continue
        if not _unit_after(s.lows, j) or _UNITS[s.lows[j + 1]] != mine:
            continue
        if j and s.lows[j - 1] == "half":
            continue  # "half an hour": no count of one
        value = number_value(low)
        if value == "1" or low in _ONE:
            return None  # the source has one of it too
        if value is not None:
            other = other or f"{s.raws[j]} {s.raws[j + 1]}"
    return other


def _other_unit(
    value: str,
    mine: tuple[str, str],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
) -> str | None:
    """The first mention of `value` with another unit of `mine`'s dimension, unless some
    mention has `mine`'s unit."""
    other: str | None = None
    for s, j, low in _words_of(sentences, shared):
        if not same_number(number_value(low), value) and not (
            value == "1"
            and low in _ONE
            and _unit_after(s.lows, j)
            and not (j and s.lows[j - 1] == "half")
        ):
            continue
        theirs = _unit(s.lows, j, s.text, s.word_spans()[j])
        if theirs is None or theirs[0] != mine[0]:
            continue
        if theirs[1] == mine[1]:
            return None  # the source has it with the claim's unit
        other = other or _written(s.raws, s.lows, j, s.text, s.word_spans()[j])
    return other


def _written(
    raws: Sequence[str], lows: Sequence[str], k: int, text: str, span: tuple[int, int]
) -> str:
    """The number at k as written: with its currency sign, or with its unit word when that
    is a separate word."""
    start, end = span
    if start and text[start - 1] in _SIGNS:
        return text[start - 1 : end]
    if text[end : end + 1] in _SIGNS:
        return text[start : end + 1]
    if _tail(lows[k]) or k + 1 >= len(raws):
        return raws[k]
    if lows[k + 1] in _SCALES and k + 2 < len(raws):
        return f"{raws[k]} {raws[k + 1]} {raws[k + 2]}"
    return f"{raws[k]} {raws[k + 1]}"


# A date written with digits is one value: "2024-03-05" is not "2024-03-03", though each
# of its numbers ("03", "05") is in the other. ISO dates, and dates with slashes read
# both ways round ("03/05/2024" is 5 March or 3 May: either reading agrees).
_ISO_DATE = re.compile(r"(?<![0-9])([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?![0-9])")
_YEAR_DIGITS = re.compile(r"[0-9]{4}")
_DIGITS = tuple("0123456789")
_SLASH_DATE = re.compile(r"(?<![0-9/])([0-9]{1,2})/([0-9]{1,2})/([0-9]{4}|[0-9]{2})(?![0-9/])")


def _dates(text: str) -> list[tuple[str, set[tuple[int, int, int]]]]:
    """Each date in `text` as written, with its (year, month, day) readings."""
    out: list[tuple[str, set[tuple[int, int, int]]]] = []
    if not any(map(text.__contains__, _DIGITS)):
        return out  # every form has an ASCII digit: ten substring searches, no pattern
    if "-" in text:
        for m in _ISO_DATE.finditer(text):
            y, mo, d = map(int, m.groups())
            out.append((m.group(0), {(y, mo, d)}))
    if "/" in text:
        for m in _SLASH_DATE.finditer(text):
            a, b, y = map(int, m.groups())
            y = y + 2000 if y < 100 else y
            out.append((m.group(0), {(y, a, b), (y, b, a)}))
    if _YEAR_DIGITS.search(text):  # "March 5, 2024", "5 March 2024" (`dates.py`)
        out += written_dates(text)
    return out


ClaimDates = tuple[tuple[str, frozenset[tuple[int, int, int]]], ...]

# The claim's dates, last text read (session 16, round 2). The verifier reads a claim's
# dates twice: `restated_dates.restate_dates` before the words are compared, then
# `date_swaps` inside `features.analyze`, with the same text unless a date was restated
# (a miss then, read anew). One entry, compared by value (the dates depend on the text
# alone), kept immutable (frozensets in a tuple) since both callers share it.
_last_claim_dates: tuple[str, ClaimDates] | None = None


def claim_dates(text: str) -> ClaimDates:
    """`_dates` of a claim's text, its readings as frozensets; the call before's answer
    when it read the same text."""
    global _last_claim_dates
    last = _last_claim_dates
    if last is not None and last[0] == text:
        return last[1]
    found = _dates(text)
    dates = tuple([(written, frozenset(readings)) for written, readings in found]) if found else ()
    _last_claim_dates = (text, dates)
    return dates


def date_swaps(
    claim_text: str, sentences: Sequence[Sentence], shared: Sequence[set[str] | frozenset[str]]
) -> list[tuple[str, str]]:
    """(claim date, source date) for each date of the claim that no reading of any source
    date matches, where a sentence sharing words with the claim states another one."""
    mine = claim_dates(claim_text)
    if not mine:
        return []
    theirs = [
        (written, readings, bool(hit))
        for s, hit in zip(sentences, shared, strict=True)
        for written, readings in _dates(s.text[s.start : s.end])
    ]
    out: list[tuple[str, str]] = []
    for written, readings in mine:
        if any(readings & other for _, other, _ in theirs):
            continue
        other_date = next((w for w, _, hit in theirs if hit), None)
        if other_date is not None:
            out.append((written, other_date))
    return out


# A strict bound is no value: "more than 3 nodes" where the source says "3 nodes" says
# what the source denies. Only against a plain mention (no bound or approximation of its
# own: "about 3", "at least 3", "over 3" say too little to contradict).
_STRICT_ONE = frozenset(("over", "above", "under", "below", "exceeding"))
_STRICT_TWO = frozenset(
    (("more", "than"), ("fewer", "than"), ("less", "than"), ("greater", "than"))
)
_QUALIFIERS = word_set(
    """about around approximately roughly nearly almost some over above under below
    exceeding least most to than estimated approx approximate circa ca"""
)


def _strict_at(lows: Sequence[str], k: int) -> bool:
    return (k > 0 and lows[k - 1] in _STRICT_ONE) or (
        k > 1 and (lows[k - 2], lows[k - 1]) in _STRICT_TWO
    )


def bound_swaps(
    words: ClaimWords, sentences: Sequence[Sentence], shared: Sequence[set[str] | frozenset[str]]
) -> list[tuple[str, str]]:
    """(claim's bound and number, source's number) for each number the claim puts under a
    strict bound ("more than 3") that every mention of it in the sentences sharing words
    with the claim states plainly ("3")."""
    lows, nums, raws = words.lows, words.numbers, words.raws
    out: list[tuple[str, str]] = []
    for i, value in enumerate(nums):
        if value is None or not _strict_at(lows, i):
            continue
        plain: str | None = None
        for s, j, low in _words_of(sentences, shared):
            if not same_number(number_value(low), value):
                continue
            if j and (s.lows[j - 1] in _QUALIFIERS or s.lows[j - 1] == "~"):
                plain = None  # a mention with a bound or approximation of its own
                break
            plain = plain or " ".join(s.raws[max(0, j - 2) : j + 2])
        if plain is not None:
            start = i - 2 if i > 1 and (lows[i - 2], lows[i - 1]) in _STRICT_TWO else i - 1
            out.append((" ".join(raws[start : i + 1]), plain))
    return out


# Read by `changed_values.py`: a number's unit, the number as written, the qualifiers
# that make a number a bound or an estimate.
unit_of = _unit
written = _written
QUALIFIERS = _QUALIFIERS
