"""A plan told by a passive of scheduling: "The feature is scheduled to ship in v2.3",
"is slated to", "is expected to", "is going to", "is about to" (session 17, the
write-path red team).

`assertion._cue` reads a plan from a verb of intention ("plan", "want", "intend", ...)
and a modal ("will", "should"). A form of "be" before "scheduled", "slated", "expected",
"going" or "about" and then "to" and a verb tells the same thing, an act not yet done,
with none of those words: "The feature shipped in v2.3" against "The feature is
scheduled to ship in v2.3" was supported (every content word is there).

`scheduled_at`: the word at `k` is one of those five, a form of "be" stands right before
it, "to" right after, and the word after "to" is no determiner, pronoun or number ("is
going to the office", "is expected to a degree": a place or a measure, no verb). The
assertion rule then reads the clause as intended, as it reads "plans to ship".
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import number_value, word_set

__all__ = ["SCHEDULING", "scheduled_at"]

SCHEDULING = word_set("scheduled slated expected going about")
_BE = word_set("is are was were am be been being 's 're")
# what follows "to" when it is a preposition, not the infinitive's marker
_NOT_A_VERB = word_set(
    """the a an this that these those my our your his her its their some any all no
    each every me us you him them it one"""
)


def scheduled_at(lows: Sequence[str], k: int) -> bool:
    """Whether the word at `k` marks a plan by a passive of scheduling (module
    docstring)."""
    if lows[k] not in SCHEDULING or k == 0 or k + 2 >= len(lows):
        return False
    if lows[k - 1] not in _BE or lows[k + 1] != "to":
        return False
    after = lows[k + 2]
    return after not in _NOT_A_VERB and number_value(after) is None
