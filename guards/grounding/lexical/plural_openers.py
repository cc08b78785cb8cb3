"""A claim that opens with a plural noun the source uses as a noun: "Students get a
30-day trial" from "The trial lasts 14 days, or 30 days for students" (session 18, older
rules' false blocks).

`owner.implied_owner` reads a claim's first word by its shape: an -s word not followed
by a verb it knows ("are", "signed", "rose") is the owner's own verb, as in "Prefers dark
mode", and where no turn of the user's speaks of the user the claim is "attributed to a
speaker who did not say it". A plural noun followed by a verb it does not list ("get",
"fire", "live") was read so, and a faithful claim was blocked ("Alerts fire if latency
exceeds 200 ms" from "If latency exceeds 200 ms, alerts fire").

The source tells which it is: the same word written after a determiner or a preposition
("for students", "the alerts"; closed classes of English) is a noun there. The owner's
verb is written after its subject ("I prefer", "my sister works", "she teaches"), which
is none of these. A word opening a clause after a comma was read as a noun too (", alerts
fire") and dropped: a verb follows its subject's apposition there as often ("Tom, my
brother, works at Acme"), so "If latency exceeds 200 ms, alerts fire" stays open.
`source_noun_opener` answers whether the source writes the claim's first word so; then
the claim opens with its subject, as `owner._written_as_name` reads a capitalised one.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.text import word_set
from groundwire.topics.records import SourceTurn

__all__ = ["source_noun_opener"]

# determiners and prepositions: a word right after one of them is no finite verb
_BEFORE_NOUN = word_set(
    """a an the this that these those all some many most few several any each every no
    other such both for of to from with without about among between into onto by at in
    on under over through during against per via like than"""
)


def source_noun_opener(low: str, turns: Sequence[SourceTurn]) -> bool:
    """Whether the evidence writes the lower-case word `low` right after a determiner or
    a preposition (module docstring)."""
    ev = evidence_for(turns)
    if low not in ev.lows:
        return False
    for s in ev.sentences:
        lows = s.lows
        if low not in lows:
            continue
        for j, lw in enumerate(lows):
            if lw != low or j == 0:
                continue
            if lows[j - 1] in _BEFORE_NOUN:
                return True
    return False
