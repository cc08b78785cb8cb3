"""A value the claim changed: an amount of the source's unit, a day of the source's kind.

The swapped-specific rule (`features._conflicts`) reads a number or a name as changed only
where it sits between the same neighbours as the source's. A summary re-words what it
summarises, so a changed value rarely keeps its neighbours: "with a risk of losing 10
million dollars if they were late" against a chat's "if we're late we may loose 5 mln
bucks", "expects confirmation by Thursday" against "confirm your attendance until next
Wednesday". The words around the value are new, the value is new, and word overlap scores
the rest of the sentence as support. Two readings of the value's *kind* find them:

* **an amount in the source's unit** (`changed_amounts`): a claim number the source never
  states, read with its unit (`units.py`: "10 million dollars", "$10", "3 GB", "2 hours",
  "8 pm"), where a source sentence sharing words with the claim states another number in
  that same unit and no mention of the claim's number exists. A number the claim bounds
  or approximates ("about", "over", "at least", `units.py`'s qualifiers) is not read: it
  does not claim the value. A number without a unit is not read either (a count of things
  may be any sum of the source's counts).
* **a day the source gives otherwise** (`changed_days`): a weekday or a month the claim
  names and the source never does, where a source sentence sharing words with the claim
  names another weekday (or month). A weekday the source leaves implicit ("TGIF",
  "tomorrow") stays an added detail, as before (`transcript.py` reads it so too).

Both are contradictions (`not_supported`), like the swapped specific they extend.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import (
    MONTH_NAMES,
    WEEKDAY_NAMES,
    ClaimWords,
    number_in,
    number_value,
)
from groundwire.guards.grounding.lexical.units import QUALIFIERS, unit_of, written

__all__ = ["MONTHS", "WEEKDAYS", "changed_amounts", "changed_days"]

WEEKDAYS = frozenset(WEEKDAY_NAMES)
MONTHS = frozenset(MONTH_NAMES)
# Words before a number that bound it or make it approximate ("at least 5", "up to 5").
_BOUNDS = frozenset(("least", "most", "to", "than", "under", "over", "some"))


def changed_amounts(
    words: ClaimWords,
    claim_text: str,
    sentences: Sequence[Sentence],
    shared: Sequence[Set[str]],
    source_numbers: Set[str | None],
) -> list[tuple[str, str]]:
    """(claim amount, source amount) for each number of the claim that the source never
    states, where a source sentence sharing words with the claim states another number
    in the claim number's unit (module docstring)."""
    out: list[tuple[str, str]] = []
    lows, nums = words.lows, words.numbers
    # the source's answer per unit, read once: a claim of thousands of numbers in one unit
    # otherwise reads every source number once per claim number (seconds at the limits)
    found: dict[tuple[str, str], str | None] = {}
    for i, value in enumerate(nums):
        if value is None or number_in(value, source_numbers):
            continue
        before = lows[i - 1] if i else ""
        if before in QUALIFIERS or before in _BOUNDS:
            continue
        mine = unit_of(lows, i, claim_text, words.spans[i])
        if mine is None:
            continue
        if mine not in found:
            found[mine] = _same_unit(mine, sentences, shared)
        theirs = found[mine]
        if theirs is not None:
            out.append((written(words.raws, lows, i, claim_text, words.spans[i]), theirs))
    return out


def _same_unit(
    mine: tuple[str, str],
    sentences: Sequence[Sentence],
    shared: Sequence[Set[str]],
) -> str | None:
    """The first number, as written, that a sentence sharing claim words states in `mine`."""
    for s, hit in zip(sentences, shared, strict=True):
        if not hit:
            continue
        spans = None
        for j, low in enumerate(s.lows):
            if number_value(low) is None:
                continue
            spans = spans or s.word_spans()
            if unit_of(s.lows, j, s.text, spans[j]) == mine:
                return written(s.raws, s.lows, j, s.text, spans[j])
    return None


def changed_days(
    words: ClaimWords,
    sentences: Sequence[Sentence],
    shared: Sequence[Set[str]],
    source_lows: Set[str],
) -> list[tuple[str, str]]:
    """(claim day, source day) for each weekday or month the claim names (a month with
    its capital: "may" is a modal) that the source never names, where a sentence sharing
    claim words names another of its kind."""
    out: list[tuple[str, str]] = []
    others: dict[str, str | None] = {}  # per day, read once (as `found` above)
    for raw, low in zip(words.raws, words.lows, strict=True):
        if low in source_lows:
            continue
        if low in WEEKDAYS:
            kind = WEEKDAYS
        elif low in MONTHS and raw[:1].isupper():
            kind = MONTHS
        else:
            continue
        if low not in others:
            others[low] = _other_of(kind, low, sentences, shared)
        other = others[low]
        if other is not None:
            out.append((raw, other))
    return out


def _other_of(
    kind: frozenset[str], low: str, sentences: Sequence[Sentence], shared: Sequence[Set[str]]
) -> str | None:
    """The first word of `kind` other than `low` in a sentence sharing claim words."""
    for s, hit in zip(sentences, shared, strict=True):
        if not hit or kind.isdisjoint(s.lows):
            continue
        for raw, other in zip(s.raws, s.lows, strict=True):
            if other in kind and other != low and (kind is WEEKDAYS or raw[:1].isupper()):
                return raw
    return None
