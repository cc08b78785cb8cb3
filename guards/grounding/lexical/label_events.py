"""Events that establish a memory label's value, and the wording around them
(`labels.explained_labels` reads a turn with these).

A user rarely states an attribute as a state ("I'm 34", "I'm a nurse", "I live in
Porto"); as often they tell the event that began it: "I turned 34 last week", "I became a
nurse last year", "I moved to Porto two years ago". The state holds from the event on
unless the turn says otherwise, so each event is read as the state it results in:

* a **resulting copula** (Quirk et al., *A Comprehensive Grammar of the English
  Language*, §16.21: "become", "turn", ... — the copulas of a change of state) before the
  value is "be" before it: "I turned 34" says "I'm 34", "I became a nurse" "I'm a nurse".
  "turn" is a copula only before a bare complement ("turned 34", "turned vegan"); with a
  determiner it takes an object ("I turned the page", "turned a corner"), which says
  nothing of the subject's state. "get", "go", "grow" and "come" are left out: "I got a
  dog", "I went to Porto", "I grew tomatoes", "I came to Porto" are events whose result is
  no attribute of the speaker's, and their copula senses ("got sick") rarely carry a
  memory's value;
* a **verb of relocation** ("move", "relocate") names the place the speaker lives in from
  then on: its wording is read as "live" too, so the labels linked to living ("Home:
  Porto": WordNet's "home" is where you *live*) are filled by "I moved to Porto", and
  those linked to "move" itself ("Residence", "Location": WordNet's "move" is a change of
  *residence*, of *location*) are filled through the verb's own entry. A birthplace or a
  hometown is not ("Hometown: Porto" against "I moved to Porto": "hometown" is where you
  *grew* up, and no entry links it to moving);
* a **time adverbial** closing the clause dates the event or the state and takes nothing
  from the value: "I turned 34 last week", "I became a nurse two years ago", "I'm a
  nurse now". Only a closed set of deictic time words counts ("last", "this", "next",
  "ago", "yesterday", "today", "now", "recently", with units of calendar time and number
  words), so "I'm 34 minutes late" is still no bare "34": "late" is no time word;
* a clause dated **ahead** ("next year", "tomorrow", "soon") or a progressive ("I'm
  turning 34", "I'm moving to Porto") tells a change still to come: no state yet;
* an **adverb between the subject and the verb** ("I just turned 34", "I recently
  became a nurse", "I finally moved to Porto") leaves the speaker the subject.

The lists are closed classes of English grammar, written from the grammar above, not
from any data set.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import number_value, word_set

__all__ = [
    "RESULT_COPULAS",
    "ahead",
    "bare_after",
    "between_subject",
    "result_wording",
    "time_tail",
]

# "become" takes any complement ("became a nurse"); "turn" only a bare one ("turned 34")
# (not "becoming", "turning": "I'm turning 34" is still to come)
_BECOME = word_set("become becomes became")
_TURN = word_set("turn turns turned")
RESULT_COPULAS = _BECOME | _TURN
_DETERMINERS = word_set("a an the my your his her our their this that")
# verbs of relocation and the state they result in
_RESULTS = {w: ("live",) for w in word_set("move moves moved moving relocate relocates relocated")}
# adverbs that may stand between a subject and its verb without changing who it is
_BETWEEN = word_set("just recently finally already officially now also only newly actually really")
# the deictic time words a closing adverbial is made of ...
_TIME_ANCHORS = word_set("last this next ago yesterday today tonight now recently")
# ... and what may stand beside them ("two years ago", "last week", "this spring")
_TIME_WORDS = _TIME_ANCHORS | word_set(
    """a an few couple of day days week weeks weekend month months year years spring
    summer autumn fall winter morning evening night just"""
)


# time words that put a clause's state after the time of speaking
_AHEAD = word_set("next tomorrow soon later upcoming someday eventually")


def ahead(lows: Sequence[str]) -> bool:
    """Whether the clause dates its event after the time of speaking ("I'm moving to Porto
    *next* year", "I turn 34 *tomorrow*"): the state it results in does not hold yet."""
    return not _AHEAD.isdisjoint(lows)


def bare_after(low: str, next_low: str | None) -> bool:
    """Whether `low` (a word of the clause) predicates what follows of its subject as
    "be" does: a resulting copula, "turn" only before no determiner ("turned 34", not
    "turned the page")."""
    if low in _BECOME:
        return True
    return low in _TURN and next_low is not None and next_low not in _DETERMINERS


def time_tail(lows: Sequence[str]) -> bool:
    """Whether `lows` (the rest of a clause after its value) is a time adverbial only:
    deictic time words, calendar units and numbers, with an anchor ("last week", "two
    years ago", "now"); empty is no tail."""
    if not lows or _TIME_ANCHORS.isdisjoint(lows):
        return False
    return all(low in _TIME_WORDS or number_value(low) is not None for low in lows)


def between_subject(lows: Sequence[str], at: Sequence[int], verb: int) -> int:
    """The position (in the sentence) of the word before the verb at sentence position
    `verb` once adverbs that may stand between a subject and its verb are passed ("I
    *just* turned 34": "I"), within the clause's positions `at`; `verb - 1` when none
    is passed."""
    k = verb - 1
    first = at[0] if at else 0
    while k > first and lows[k] in _BETWEEN:
        k -= 1
    return k


def result_wording(lows: Sequence[str]) -> list[str]:
    """The states the clause's event verbs result in ("moved" -> "live"), to be read as
    wording beside the clause's own words."""
    return [state for low in lows for state in _RESULTS.get(low, ())]
