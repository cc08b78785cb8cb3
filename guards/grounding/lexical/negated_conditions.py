"""A negation inside a condition that the other side writes as "unless": "We deploy if the
tests don't fail" where the source says "We deploy unless the tests fail" (session 18,
older rules' false blocks).

"unless X" is "if not X" (`inverted_conditions.py` reads the same grammar fact the other
way: "if X" against "unless X" is a condition turned round). The polarity rule counts a
negation word and not the subordinator, so it aligned "if the tests don't fail" with
"unless the tests fail", found a negation on one side only, and blocked a faithful
restatement as a negation flip; the sentence-level count did the same.

Read (`condition_agrees`, asked by `negation_agreement.agrees_in_other_form`): the
negation of the negated side stands inside a condition it opens with a positive
subordinator ("if", "when", "whenever": the closed class of `inverted_conditions`), and
the other side's aligned clause holds a condition with exactly the same content stems
and the same polarity (its "unless", unnegated). Then the two say the same thing. A
negation outside the condition ("We don't deploy if the tests fail"), or a condition in
other words ("if the tests don't pass" / "unless the tests fail") is not read here and
stays what the polarity rule finds.
"""

from __future__ import annotations

from collections.abc import Sequence

from groundwire.guards.grounding.lexical.inverted_conditions import CONDITION_WORDS, conditions

__all__ = ["condition_agrees"]

_POSITIVE = CONDITION_WORDS - {"unless"}


def _in_condition(lows: Sequence[str], pos: Sequence[int], neg_at: int) -> bool:
    """Whether the negation at `neg_at` follows a positive subordinator of its clause
    (positions `pos`) with no other subordinator between."""
    for k in reversed([p for p in pos if p < neg_at]):
        if lows[k] in CONDITION_WORDS:
            return lows[k] in _POSITIVE
    return False


def _conditions_of(
    lows: Sequence[str], stems: Sequence[str], content: Sequence[bool], pos: Sequence[int]
) -> list[tuple[str, frozenset[str], bool]]:
    """The conditions (`inverted_conditions.conditions`) within the clause `pos`."""
    inside = set(pos)
    clause = [0 if k in inside else 1 for k in range(len(lows))]
    return [c for c in conditions(lows, stems, content, clause) if c[1]]


def condition_agrees(
    neg_lows: Sequence[str],
    neg_stems: Sequence[str],
    neg_content: Sequence[bool],
    neg_pos: Sequence[int],
    neg_at: int,
    other_lows: Sequence[str],
    other_stems: Sequence[str],
    other_content: Sequence[bool],
    other_pos: Sequence[int],
) -> bool:
    """Whether the negated side's condition ("if the tests don't fail", clause `neg_pos`,
    negation at `neg_at`) is the other side's "unless" condition (clause `other_pos`):
    the same content stems, the same polarity (module docstring)."""
    if "unless" not in (other_lows[k] for k in other_pos):
        return False
    if not _in_condition(neg_lows, neg_pos, neg_at):
        return False
    mine = [c for c in _conditions_of(neg_lows, neg_stems, neg_content, neg_pos) if not c[2]]
    if not mine:
        return False
    theirs = _conditions_of(other_lows, other_stems, other_content, other_pos)
    return any(
        word == "unless" and stems == m_stems and positive == m_positive
        for _, m_stems, m_positive in mine
        for word, stems, positive in theirs
    )
