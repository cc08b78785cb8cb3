"""A change's amount told as its result: "The team grew to 14 engineers" where the
source says "The team grew by 14 engineers" (session 17, the write-path red team).

After a verb of change, "by" names the amount of the change and "to" the value it
reached: "grew by 14" (14 more) and "grew to 14" (14 in all) are different facts with
the same number, so the number rules, which read the number and its unit, find it in
the source and the claim was supported. A verb of change is one WordNet places on a
side of "increase" / "decrease" (`factor_phrases.direction`: "grow", "rise", "fall",
"drop", "cut", "raise", ...); the rule reads no other verb ("moved to 14th Street",
"paid by 14 people" name no change of amount).

`swapped_targets`: a claim number written "<verb> to N" or "<verb> by N" (at most one
unit word between the preposition and N is none: the number follows the preposition at
once) where a source sentence writes the same verb stem and the same number after the
other preposition, and no source sentence writes the claim's own: (claim's phrase,
source's phrase).
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.factor_phrases import direction
from groundwire.guards.grounding.lexical.text import number_value

__all__ = ["swapped_targets"]

_OTHER = {"to": "by", "by": "to"}


def _changes(
    lows: Sequence[str], stems: Sequence[str], nums: Sequence[str | None]
) -> set[tuple[str, str, str]]:
    """(verb stem, preposition, number) of each "<verb of change> to/by N" of a text."""
    out: set[tuple[str, str, str]] = set()
    for k in range(2, len(lows)):
        num = nums[k]
        if num is None or lows[k - 1] not in _OTHER:
            continue
        if direction(lows[k - 2]) is not None:
            out.add((stems[k - 2], lows[k - 1], num))
    return out


def swapped_targets(
    lows: Sequence[str],
    stems: Sequence[str],
    nums: Sequence[str | None],
    sentences: Sequence[Sentence],
) -> list[tuple[str, str]]:
    """(claim's "<verb> to N", source's "<verb> by N") or the other way round, for each
    change the source tells with the other preposition (module docstring)."""
    mine = _changes(lows, stems, nums)
    if not mine:
        return []
    theirs: set[tuple[str, str, str]] = set()
    for s in sentences:
        if "to" in s.lows or "by" in s.lows:
            theirs |= _changes(s.lows, s.word_stems, [number_value(w) for w in s.lows])
    out: list[tuple[str, str]] = []
    for verb, prep, num in sorted(mine):
        if (verb, prep, num) in theirs or (verb, _OTHER[prep], num) not in theirs:
            continue
        out.append((f"{prep} {num}", f"{_OTHER[prep]} {num}"))
    return out
