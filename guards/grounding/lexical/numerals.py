"""Counts written with words the number table cannot read alone: an ASCII Roman numeral
("IV replicas") and "a pair of" / "a couple of". Each is a count only in some places, so
it is read in its sentence, like a decade (`text.read_decades`), on the claim's words and
on every source sentence's alike.

* **A Roman numeral** of the letters I, V and X, two letters or more, worth 2 to 39
  ("II" ... "XXXIX"; `ROMAN_NUMERALS`), written in capitals, is a count where a count
  stands: right before a lower-case plural word ("IV replicas", "VI workers") and right
  after a lower-case word ("has IV replicas", "with XII nodes"). Elsewhere it is a name
  or an abbreviation and reads as before: after a capitalised word it is a name's or a
  label's ordinal ("World War II", "Phase III trials", "Type II diabetes", "Chapter
  IV"); first in its sentence or before anything but a plural it is a word ("IV drip",
  "an IV", "IV. Results"). One letter ("I", "V", "X") is never read (the pronoun, a
  letter, a placeholder), nor are numerals with L, C, D or M ("CV", "MIX", "DC", "CD",
  "XL" are abbreviations far more often than numbers). A plural right after "IV" can
  still be the abbreviation's ("IV fluids"); where the source writes the same word the
  claim's reads as the source's (the same word is the same number), so only a claim
  that adds the abbreviation before a plural the source counts otherwise is misread.
  Session 14b: one lower-case word may stand between the numeral and its plural ("IV
  backend replicas"), unless it ends the phrase ("and", "of", "the", ...); and the
  numerals in lower case ("iv", "xii") are read where a count is expected: after a word
  a count follows ("has", "with", "to", "on", "runs", "are", ... `_COUNT_BEFORE`) and
  before a plural, so "has iv replicas" is four but "an iv drip", "the iv bags",
  "Chapter iv" stay words. "vi" in lower case is never read: it is the editor, and "has
  vi keybindings" stands where a count would.
* **"a pair of", "a couple of" and "a trio of"** are two, two and three ("a pair of
  shoes" is two shoes): the word reads as its number after "a" (or "one") and before
  "of". "a couple of" is read as exactly two, so "a couple of designers" against the
  source's "five designers" is a changed count, and against "two designers" the same.
  "pair" elsewhere is a word ("pair programming", "the couple"). "a dozen" is twelve
  already (`text.NUMBER_WORDS`), and "half a dozen" / "a half-dozen" six (not the
  numbers 0.5 and 12, which no source of "six" writes). "a score of" is not read: in
  today's text it is mostly a result ("a score of 90"), rarely twenty.
* **"once" before a period** is 1 ("once a week" against "twice a week", "once per
  sprint"; "once we deploy" is a time, no count). "twice" and "thrice" are 2 and 3
  everywhere (`text.NUMBER_WORDS`). "both" and "a single" are not read: "both" is a
  determiner of dialogue far more often than a count the source states otherwise, and a
  count of one is not compared with a count of the same noun (`counts.py` reads 2 to 20).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["ROMAN_NUMERALS", "read_numerals"]


def _roman(value: int) -> str:
    """`value` (1 to 39) in Roman numerals of I, V and X."""
    out = "X" * (value // 10)
    for digit_value, letters in ((9, "IX"), (5, "V"), (4, "IV")):
        if value % 10 >= digit_value:
            out += letters
            value -= digit_value
    return out + "I" * (value % 10 if value % 10 < 4 else 0)


# "II" -> "2" ... "XXXIX" -> "39": the numerals of I, V and X of two letters or more
ROMAN_NUMERALS = {numeral: str(v) for v in range(2, 40) if len(numeral := _roman(v)) >= 2}
# Session 14b: the same numerals in lower case ("iv" -> "4"), read only after a word a
# count follows (`_COUNT_BEFORE`); never "vi" (the editor: "has vi keybindings")
_LOWER_NUMERALS = {k.lower(): v for k, v in ROMAN_NUMERALS.items() if k != "VI"}
_COUNT_BEFORE = frozenset(
    [
        "has",
        "have",
        "had",
        "having",
        "with",
        "to",
        "from",
        "across",
        "on",
        "onto",
        "over",
        "into",
        "are",
        "were",
        "runs",
        "run",
        "ran",
        "all",
        "only",
        "exactly",
    ]
)
# Words that end a noun phrase rather than modify its noun: no word between a numeral
# and its plural ("IV backend replicas") is one of these
_NOT_MODIFIERS = frozenset(
    [
        "and",
        "or",
        "nor",
        "but",
        "of",
        "the",
        "a",
        "an",
        "for",
        "to",
        "in",
        "on",
        "at",
        "per",
        "by",
        "with",
        "not",
        "are",
        "is",
        "was",
        "were",
        "be",
        "that",
        "this",
        "its",
        "it",
    ]
)
_PAIRS = {"pair": "2", "couple": "2", "trio": "3"}
_ARTICLES = frozenset(("a", "an", "one"))
_TIMES = frozenset(("once",))
_PER = frozenset(("a", "an", "per", "every", "each"))


def read_numerals(
    raws: Sequence[str], lows: Sequence[str], numbers: tuple[str | None, ...]
) -> tuple[str | None, ...]:
    """The number column of a sentence with its Roman-numeral counts, "a pair of" / "a
    couple of" / "a trio of", "half a dozen" and "once a ..." read (module
    docstring). Most sentences
    have none and are given back as they are after a few C-level set tests."""
    roman = not ROMAN_NUMERALS.keys().isdisjoint(raws) or not _LOWER_NUMERALS.keys().isdisjoint(
        raws
    )
    pairs = not _PAIRS.keys().isdisjoint(lows)
    half_dozen = "half" in lows and "dozen" in lows
    times = not _TIMES.isdisjoint(lows)
    if not roman and not pairs and not half_dozen and not times:
        return numbers
    out = list(numbers)
    if times:
        for i, low in enumerate(lows):
            if low == "once" and i + 1 < len(lows) and lows[i + 1] in _PER:
                out[i] = "1"  # "once a week"; "once we deploy" is no count
    if half_dozen:
        for i, low in enumerate(lows):
            if low != "dozen":
                continue
            half = i - 1 if i >= 1 and lows[i - 1] == "half" else i - 2
            if half >= 0 and lows[half] == "half" and (half == i - 1 or lows[i - 1] in _ARTICLES):
                out[half], out[i] = None, "6"  # "half a dozen", "a half-dozen": six
    last = len(lows) - 1
    for i in range(1, last):
        value = _roman_count(raws, lows, i) if roman else None
        if value is not None:
            out[i] = value
        elif pairs and lows[i] in _PAIRS and lows[i - 1] in _ARTICLES and lows[i + 1] == "of":
            out[i] = _PAIRS[lows[i]]
    return tuple(out)


def _plural(word: str) -> bool:
    """A lower-case word of letters ending in "s" but not "ss" ("replicas", not "class")."""
    return word[:1].islower() and word.isalpha() and word.endswith("s") and not word.endswith("ss")


def _roman_count(raws: Sequence[str], lows: Sequence[str], i: int) -> str | None:
    """The count `raws[i]` stands for when it is a Roman numeral where a count stands, else
    None (module docstring). The plural follows right after the numeral or after one
    lower-case word that modifies it ("IV backend replicas"); a numeral in capitals comes
    after any lower-case word, one in lower case only after a word a count follows ("has
    iv replicas"), since lower-case "ii", "iv" are also typed for other things."""
    raw = raws[i]
    value = ROMAN_NUMERALS.get(raw)
    if value is not None:
        if not raws[i - 1][:1].islower():
            return None
    else:
        value = _LOWER_NUMERALS.get(raw)
        if value is None or lows[i - 1] not in _COUNT_BEFORE:
            return None
    after = raws[i + 1]
    if _plural(after):
        return value
    if (
        i + 2 < len(raws)
        and after[:1].islower()
        and after.isalpha()
        and after not in _NOT_MODIFIERS
        and _plural(raws[i + 2])
    ):
        return value
    return None
