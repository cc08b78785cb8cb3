"""A number written at another scale or in another unit is the same number: "$5,000,000"
is the source's "$5 million", "0.2 s" its "200 ms", "5 million" its "5,000,000".

Word overlap compares the digits as written, so the claim's number is "not in the
source", and the swapped-specific rule reads it as a different number between the same
neighbours ("'5,000,000' where the source says '5'"): a true restatement was blocked.
Each number is read as a magnitude: its value, times a scale word after it ("million",
"bn", "thousand") or a scale letter written onto it after a currency sign ("$5M", "€2bn":
without the sign "5m" may be metres or minutes), times its unit's size in the unit's
dimension (`units._unit`: time in seconds, data in bytes, frequency in hertz; a currency
is its own dimension, so "$5M" is never "€5M"). A claim number whose magnitude and
dimension equal a source number's, written differently, takes that source number's words
(`as_the_sources`), so every later rule reads it as the source's own; a different
magnitude ("$50M", "$0.5M", "200 s") is left as it was and caught as before. Months and
years are not converted to days (their length varies), only to each other (twelve months
a year; session 15b), nor are kibibytes told from kilobytes (the unit table reads both
as kB): a number these leave apart is only not matched.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.numerals import read_numerals
from groundwire.guards.grounding.lexical.scale_words import glued_thousands, hundreds_of
from groundwire.guards.grounding.lexical.text import ClaimWords, number_value
from groundwire.guards.grounding.lexical.units import _SIGNS, _unit, half_of

__all__ = ["as_the_sources", "magnitudes"]

_SCALE_WORDS = {
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "mln": 1e6,
    "mn": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "trillion": 1e12,
    "tn": 1e12,
}
# scale letters written onto a number after a currency sign ("$5M", "$5MM", "€2bn")
_SCALE_SUFFIXES = {"m": 1e6, "mm": 1e6, "mn": 1e6, "bn": 1e9, "b": 1e9, "tn": 1e12}
# the size of each unit (`units._table`'s names) in its dimension's base unit
_SIZES = {
    "ns": 1e-9,
    "µs": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "min": 60.0,
    "h": 3600.0,
    "day": 86400.0,
    "wk": 604800.0,
    "byte": 1.0,
    "kb": 1e3,
    "mb": 1e6,
    "gb": 1e9,
    "tb": 1e12,
    "pb": 1e15,
    "hz": 1.0,
    "khz": 1e3,
    "mhz": 1e6,
    "ghz": 1e9,
}
# months and years, in months: a dimension of their own (session 15b). Their length in
# days varies, so neither is converted to days or weeks, but a year is always twelve
# months: "24 months" is the source's "two years", "12 months" its "a year".
_CALENDAR = {"mo": 1.0, "yr": 12.0}

# (position of the number, dimension, magnitude, positions of its scale and unit words)
Magnitude = tuple[int, str, float, tuple[int, ...]]


def magnitudes(
    raws: Sequence[str],
    lows: Sequence[str],
    spans: Sequence[tuple[int, int]],
    text: str,
) -> list[Magnitude]:
    """Each number of the words with its dimension ("" for a count, "money:dollar",
    "time", ...), its magnitude in the dimension's base unit, and the positions of the
    separate scale and unit words that belong to it."""
    out: list[Magnitude] = []
    # each word's number as read in its sentence ("a pair of" is 2, "IV replicas" 4,
    # "half a dozen" 6: `numerals.read_numerals`), on both sides alike
    values = read_numerals(raws, lows, tuple(map(number_value, lows)))
    scale_of = -1  # the "hundred" of "fifteen hundred": a scale, no number
    for i, low in enumerate(lows):
        value = values[i]
        if value is None or low in _SCALE_WORDS or not value[:1].isdigit() or i == scale_of:
            continue  # no number, a scale word itself, a version or a decade
        try:
            size = float(value)
        except ValueError:
            continue
        extra: list[int] = []
        start, end = spans[i]
        signed = bool(start) and text[start - 1] in _SIGNS
        # letters written onto digits ("5m", "200ms"); a number word has none
        suffix = low.lstrip("0123456789.,") if low[:1].isdigit() else ""
        if signed and suffix in _SCALE_SUFFIXES:
            size *= _SCALE_SUFFIXES[suffix]
        scale_at = i + 2 if half_of(lows, i) else i + 1  # "half a million"
        if scale_at < len(lows) and lows[scale_at] in _SCALE_WORDS and lows[scale_at] != "k":
            size *= _SCALE_WORDS[lows[scale_at]]
            extra.append(scale_at)
        elif scale_at < len(lows) and lows[scale_at] == "k" and glued_thousands(lows, spans, i):
            size *= 1e3  # "1.5k": the tokenizer cuts the letter off a decimal (session 18)
            extra.append(scale_at)
        elif (
            scale_at < len(lows)
            and lows[scale_at] == "hundred"
            and hundreds_of(lows, spans, text, i, size)
        ):
            size *= 1e2  # "fifteen hundred" (session 18)
            extra.append(i + 1)
            scale_of = i + 1
        unit = _unit(lows, i, text, (start, end))
        dimension = ""
        if unit is not None:
            kind, name = unit
            if kind == "money":
                dimension = f"money:{name}"
            elif name in _SIZES or name in _CALENDAR:
                if name in _SIZES:
                    dimension, size = kind, size * _SIZES[name]
                else:
                    dimension, size = "calendar", size * _CALENDAR[name]
                after = (extra[-1] if extra else i + half_of(lows, i)) + 1
                if not suffix and after < len(lows) and not lows[after][:1].isdigit():
                    extra.append(after)
            else:
                continue  # times of day: not converted
        out.append((i, dimension, size, tuple(extra)))
    return out


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))


class _Index:
    """The source's magnitudes by dimension and size: the first (in the source's order) of
    those the same as a claim's (`_same`), found by bisection over the distinct sizes
    instead of a scan of every source number per claim number (a claim and source at the
    size limits made of numbers then cost seconds)."""

    def __init__(self, theirs: Sequence[tuple[Sentence, Magnitude]]) -> None:
        firsts: dict[str, dict[float, int]] = {}
        for n, (_, (_, dimension, size, _)) in enumerate(theirs):
            firsts.setdefault(dimension, {}).setdefault(size, n)
        self._firsts = firsts
        self._sizes = {d: sorted(f) for d, f in firsts.items()}
        self._memo: dict[tuple[str, float], int | None] = {}

    def first(self, dimension: str, size: float) -> int | None:
        """The index in `theirs` of the first magnitude of `dimension` the same as `size`."""
        key = (dimension, size)
        if key not in self._memo:
            sizes = self._sizes.get(dimension, [])
            # `_same` admits a relative difference of 1e-9: the window is a little wider
            lo = bisect.bisect_left(sizes, size - 2e-9 * abs(size))
            hi = bisect.bisect_right(sizes, size + 2e-9 * abs(size))
            firsts = self._firsts.get(dimension, {})
            hits = [firsts[b] for b in sizes[lo:hi] if _same(size, b)]
            self._memo[key] = min(hits) if hits else None
        return self._memo[key]


def as_the_sources(cw: ClaimWords, text: str, sentences: Sequence[Sentence]) -> ClaimWords:
    """The claim with each number that the source writes at another scale or in another
    unit given the source's words (module docstring): the number takes the source
    number's word, and its scale or unit word the source's scale or unit word in the
    same place, or the number's word where the source has none ("$5,000,000" against "$5
    million": "5"; "0.2 s" against "200 ms": "200", "ms")."""
    mine = [m for m in magnitudes(cw.raws, cw.lows, cw.spans, text) if cw.numbers[m[0]] is not None]
    if not mine:
        return cw
    lows, stems, numbers = list(cw.lows), list(cw.stems), list(cw.numbers)
    changed = False
    theirs = [(s, m) for s in sentences for m in magnitudes(s.raws, s.lows, s.word_spans(), s.text)]
    index = _Index(theirs)
    for i, dimension, size, extra in mine:
        first = index.first(dimension, size)
        if first is not None:
            s, (j, _, _, other_extra) = theirs[first]
            written = (cw.lows[i], *(cw.lows[k] for k in extra))
            if written == (s.lows[j], *(s.lows[k] for k in other_extra)):
                continue  # written as the source writes it: nothing to do
            lows[i], stems[i], numbers[i] = s.lows[j], s.word_stems[j], number_value(s.lows[j])
            for n, k in enumerate(extra):
                at = other_extra[n] if n < len(other_extra) else j
                lows[k], stems[k], numbers[k] = (
                    s.lows[at],
                    s.word_stems[at],
                    number_value(s.lows[at]),
                )
            changed = True
    if not changed:
        return cw
    return cw._replace(lows=tuple(lows), stems=tuple(stems), numbers=tuple(numbers))
