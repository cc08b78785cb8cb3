"""A negation the other side writes in another form, read by `polarity.check_polarity`
as an agreement, not a flip (session 17, the write-path red team).

The polarity rule aligns a negated clause of one side with an unnegated clause of the
other and reports a negation flip unless an antonym under the negation undoes it ("not
disabled" / "enabled"). English denies in other forms the rule does not count as a
negation word, and each is the same statement as the plain negation:

* "non-X" (`non_negations.non_agrees`): "not blocking" / "non-blocking";
* another form of exception (`exceptions_dropped.exception_agrees`): "except the
  interns" / "but the interns";
* the verb "lack" or "far from" (`privatives.privative_agrees`): "does not support IPv6"
  / "lacks IPv6 support";
* a state told as ended (`ended_states.ended_agrees`): "no longer uses" / "stopped
  using" / "used to use".

* a negation of a negative verb ("never stopped using", "don't lack funding"), which
  states the plain fact: the other side's "still use", "have funding" agrees with it
  (`_denied_negative`; before session 17 this read as a negation flip).

`agrees_in_other_form` asks each of them, with the negated side first.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.ended_states import CEASING, ended_agrees
from groundwire.guards.grounding.lexical.ended_states import gerund_after as ceased_at_plain
from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.exceptions_dropped import exception_agrees
from groundwire.guards.grounding.lexical.non_negations import non_agrees
from groundwire.guards.grounding.lexical.privatives import PRIVATIVES, privative_agrees
from groundwire.guards.grounding.lexical.text import NEGATIONS, word_set

__all__ = ["agrees_in_other_form", "denied_denial_only", "only_denied_denials"]

# between a negation and the verb it denies ("did not ever stop", "never really lacked")
_BETWEEN = word_set("do does did ever really")


def _denied_negative(lows: Sequence[str], neg_at: int) -> bool:
    """Whether the negation at `neg_at` denies a verb of cessation before a gerund or the
    verb "lack": a denied denial, which states the plain fact."""
    k = neg_at + 1
    while k < len(lows) and lows[k] in _BETWEEN:
        k += 1
    if k >= len(lows):
        return False
    return lows[k] in PRIVATIVES or (lows[k] in CEASING and ceased_at_plain(lows, k))


def only_denied_denials(lows: Sequence[str]) -> bool:
    """Whether a sentence writes a negation and each of its negations denies a negative
    verb ("We have never lacked funding", "We never stopped using it"): a sentence that
    states only plain facts, for the sentence-level negation count (session 17,
    faithful restatements). A claim of one content word ("We have funding") has no
    clause the polarity rule aligns, so its agreement never undid the count."""
    found = False
    for k, low in enumerate(lows):
        if low in NEGATIONS:
            if not _denied_negative(lows, k):
                return False
            found = True
    return found


def denied_denial_only(best: Sentence, claim_lows: Sequence[str]) -> bool:
    """Whether an unnegated claim that does not write the negative verb itself (no
    "lack", no "stopped") is matched to a sentence whose only negations deny a negative
    verb (`only_denied_denials`): the two state the same plain fact. "We lack funding"
    and "We stopped using it" keep their mismatch with "never lacked" / "never stopped"."""
    if any(low in PRIVATIVES or low in CEASING for low in claim_lows):
        return False
    return only_denied_denials(best.lows)


def agrees_in_other_form(
    claim_negated: bool,
    lows: Sequence[str],
    stems: Sequence[str],
    c_pos: Sequence[int],
    claim_side: Sequence[int],
    s: Sentence,
    d_pos: Sequence[int],
    source_side: Sequence[int],
    neg_at: int,
) -> bool:
    """Whether the aligned clauses (the claim's `c_pos`, the source sentence's `d_pos`)
    say the same thing though only one side (the claim when `claim_negated`) writes a
    negation word, at `neg_at` of that side; `claim_side` / `source_side` are what the
    polarity rule reads on each side (the negation's scope on the negated one)."""
    # a denied denial, where the other side does not write the negative verb itself
    # ("We stopped using it" / "We never stopped using it" still differ)
    plain_lows, plain_pos = (s.lows, d_pos) if claim_negated else (lows, c_pos)
    if _denied_negative(lows if claim_negated else s.lows, neg_at) and not any(
        plain_lows[k] in CEASING or plain_lows[k] in PRIVATIVES for k in plain_pos
    ):
        return True
    if claim_negated:
        return (
            non_agrees(lows, claim_side, s.lows, source_side)
            or exception_agrees(lows, neg_at, claim_side, s.lows, source_side)
            or privative_agrees(stems, claim_side, s.lows, s.word_stems, s.content, source_side)
            or ended_agrees(lows, c_pos, s.lows, d_pos)
        )
    return (
        non_agrees(s.lows, source_side, lows, claim_side)
        or exception_agrees(s.lows, neg_at, source_side, lows, claim_side)
        or ended_agrees(s.lows, d_pos, lows, c_pos)
    )
