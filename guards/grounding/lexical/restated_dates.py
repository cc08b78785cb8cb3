"""A date the claim restates in another form reads as the source's own form.

"The release is on March 6, 2024" against a source's "The release is on 2024-03-06"
states the same value; word overlap counted "March" as a name and "6" as a number no
source has and scored the claim `partial`. `units.date_swaps` already reads every date
form as (year, month, day) to catch a changed date; this reads it the other way round:
a claim date with exactly one reading (a full date: ISO, "March 6, 2024", "6 March
2024"; not a month of a year, nor a slash date that reads both ways) that some source date
can be read as is written the way that source writes it before the words are compared.
A changed date matches no source date and stays as written (and `date_swaps` reports it).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from groundwire.guards.grounding.lexical.units import _dates, claim_dates
from groundwire.topics.records import SourceTurn

__all__ = ["restate_dates"]

# Turn texts whose dates are kept (`_turn_dates`). The claims of a conversation cite the
# same turns, and a claim with a date read every turn's text with the date patterns again
# (three case-blind scans for a month's name); the dates of a text depend on the text
# alone, the same for every tenant. 512 texts of at most `max_evidence_chars` each, and
# a few dates per text.
TURN_DATES_CACHE = 512


def restate_dates(claim_text: str, turns: Sequence[SourceTurn]) -> str:
    """`claim_text` with each full date a source states in another form written as that
    source writes it; `claim_text` itself when there is none."""
    mine = [(w, r) for w, r in claim_dates(claim_text) if len(r) == 1]
    if not mine:
        return claim_text
    theirs = [d for t in turns for d in _turn_dates(t.text)]
    for written, readings in mine:
        for other, other_readings in theirs:
            if other != written and readings <= other_readings and other not in claim_text:
                claim_text = claim_text.replace(written, other, 1)
                break
    return claim_text


@functools.lru_cache(maxsize=TURN_DATES_CACHE)
def _turn_dates(text: str) -> tuple[tuple[str, frozenset[tuple[int, int, int]]], ...]:
    """`units._dates` of a turn's text, cached (`TURN_DATES_CACHE`); immutable, since the
    cache shares it between claims."""
    return tuple((written, frozenset(readings)) for written, readings in _dates(text))
