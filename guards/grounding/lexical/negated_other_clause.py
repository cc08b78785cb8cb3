"""A negated clause about another doer, beside the clause that states the claim
(session 17, faithful restatements round 2).

"Ben has not closed the ticket; Ana has closed it" against "The ticket was closed by
Ana": the polarity rule aligns the claim with Ben's clause (it shares "ticket" and
"closed"; Ana's says "it" for the ticket) and reads a negation flip, and the
sentence-level negation count differs too. The claim restates Ana's clause.

A differing clause `d` is another's when the same sentence has a clause `e` of the
claim's own polarity such that

* `d` has a content word of its own (not the claim's: "Ben"), so it is about something
  else;
* `e` holds every claim word `d` lacks ("Ana") and no content word outside the claim,
  and shares at least two content words with the claim (the verb too).

Then the claim agrees with `e`, and `d` is not read against it. "The ticket was closed
by Ben" (Ben's clause lacks no claim word) and "Ana has not closed the ticket" (the
clause of its polarity, Ben's, has a word of its own) stay negation flips.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

__all__ = ["negation_of_another"]


def negation_of_another(
    claim_stems: Set[str],
    d_id: int,
    clauses: Sequence[Set[str]],
    claim_negated: bool,
    source_negated: Set[int],
) -> bool:
    """Whether clause `d_id`, of the polarity the claim does not have, is about another
    while a clause of the claim's polarity among `clauses` (the content stems of each
    clause of the sentence, by number; `source_negated`: the negated clauses' numbers)
    states the claim (module docstring)."""
    d_stems = clauses[d_id]
    lacking = claim_stems - d_stems
    if not lacking or d_stems <= claim_stems:
        return False
    return any(
        e_id != d_id
        and (e_id in source_negated) == claim_negated
        and lacking <= e_stems
        and e_stems <= claim_stems
        and len(claim_stems & e_stems) >= 2
        for e_id, e_stems in enumerate(clauses)
    )
