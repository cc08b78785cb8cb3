"""A plan named, not made: "for the enterprise plan" (session 16).

`assertion.py` reads "plan", "plans" and "proposal" as an intention ("we plan to
migrate", "the plan is to migrate", "a proposal to move"). As the last word of its
clause, after a word that is not its subject, the word is a noun naming a thing
("our customers pay for the enterprise *plan*", "they rejected the *proposal*"): nothing
is intended there, and reading it as a cue made the whole clause a plan. A claim with
such a noun was then never held to a source that only says it *could* be so ("Our
customers could pay for the enterprise plan" / "Our customers pay for the enterprise
plan" was approved), and a source clause with one was read as intended, not stated.

`names_a_plan` answers for one word: the intention's nouns only, last in the sentence
or before a coordinator ("the plan, and ..."), not after a subject pronoun or "to" ("we
plan.", "what we need to plan"). Anything after the word keeps the cue: "the plan is
to migrate", "a plan for migrating" state an intention.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import COORDINATORS

__all__ = ["names_a_plan"]

_NOUNS = frozenset(("plan", "plans", "proposal"))
_NOT_BEFORE_NOUN = frozenset(("i", "we", "you", "he", "she", "they", "it", "to"))


def names_a_plan(lows: Sequence[str], k: int) -> bool:
    """Whether the word at k is an intention's noun that only names a thing (module
    docstring)."""
    if lows[k] not in _NOUNS or k == 0 or lows[k - 1] in _NOT_BEFORE_NOUN:
        return False
    return k + 1 == len(lows) or lows[k + 1] in COORDINATORS
