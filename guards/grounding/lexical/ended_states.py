"""A state told as ended, in the source or the claim, in another form: "We stopped using
Jenkins", "Ana used to work at Stripe", "We no longer use Jenkins" (session 17, the
write-path red team).

`cessation.py` reads a claim that ends what the source states ("has stopped approving" /
"approves"), and `assertion.py` a source "used to" as a habit given up (the mood
"past"). Three readings were missing:

* a source's verb of cessation before a gerund ("stopped / quit / ceased using") is the
  same mood as its "used to": `ceased_at` marks it "past", so "We still use Jenkins"
  against "We stopped using Jenkins" is a state the source says has ended
  (`not_supported`, as "Ana still works at Stripe" / "Ana used to work at Stripe" was);
  a negation right before the verb ("never stopped using") says it goes on: not read;
* a claim that itself says the state has ended ("no longer", "not ... anymore", a verb
  of cessation, "used to") is not held to the source's "past" (`tells_ended`): "Ana no
  longer works at Stripe" restates "Ana used to work at Stripe";
* the claim's "no longer" against the source's cessation or "used to", or the other way
  round, is no negation flip (`ended_agrees`): both say it is over.

The words are closed classes of English: the verbs of cessation in their forms, "no
longer", "anymore" / "any more".
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.text import NEGATIONS, word_set

__all__ = ["CEASING", "ceased_at", "ended_agrees", "gerund_after", "tells_ended"]

CEASING = word_set("stop stops stopped quit quits ceased cease ceases")


def gerund_after(lows: Sequence[str], k: int) -> bool:
    """Whether a gerund follows the word at `k` ("stopped *using*"; not "stopped the")."""
    if k + 1 >= len(lows):
        return False
    nxt = lows[k + 1]
    return nxt.endswith("ing") and len(nxt) > 4  # "using", not "ring"


def ceased_at(lows: Sequence[str], k: int) -> bool:
    """Whether the word at `k` is a verb of cessation before a gerund ("stopped using")."""
    if lows[k] not in CEASING or k + 1 >= len(lows):
        return False
    if not NEGATIONS.isdisjoint(lows[max(0, k - 2) : k]):
        return False  # "we never stopped using it", "didn't stop using": it goes on
    return gerund_after(lows, k)


def _no_longer(lows: Sequence[str], positions: Sequence[int]) -> bool:
    """ "no longer", or "anymore" / "any more" after a negation, among `positions`."""
    at = set(positions)
    for k in positions:
        low = lows[k]
        if low == "no" and k + 1 in at and lows[k + 1] == "longer":
            return True
        if (low == "anymore" or (low == "more" and k and lows[k - 1] == "any")) and any(
            lows[j] in NEGATIONS for j in positions if j < k
        ):
            return True
    return False


def _ended_cue(lows: Sequence[str], positions: Sequence[int]) -> bool:
    """A verb of cessation before a gerund, or "used to", among `positions`."""
    at = set(positions)
    return any(
        ceased_at(lows, k) or (lows[k] == "used" and k + 1 in at and lows[k + 1] == "to")
        for k in positions
    )


def tells_ended(lows: Sequence[str], positions: Sequence[int]) -> bool:
    """Whether the clause (`positions`) says its state has ended, in any of the forms."""
    return _no_longer(lows, positions) or _ended_cue(lows, positions)


def ended_agrees(
    negated_lows: Sequence[str],
    negated: Sequence[int],
    other_lows: Sequence[str],
    other: Sequence[int],
) -> bool:
    """Whether a clause negated by "no longer" (`negated`: its positions) and the other
    clause, ended by a verb of cessation or "used to", both say the state is over."""
    return _no_longer(negated_lows, negated) and _ended_cue(other_lows, other)
