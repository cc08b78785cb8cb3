"""A source sentence that states the claim twice, the second time with a pronoun for its
subject: "Vendors may not access the logs; they are prohibited from accessing the logs"
against "Vendors are prohibited from accessing the logs" (session 18, older rules' false
blocks).

The polarity rule aligned the claim with the first clause (it shares "vendors",
"access", "logs"), read "may not" as a negation the claim lacks, and blocked the claim,
though the second clause says exactly what the claim says with "they" for "vendors".
`negated_other_clause.py` reads a differing clause about *another* doer; here the
differing clause is about the same doer, told in another form.

A differing clause `d` is restated when a clause `e` of the same sentence, of the
claim's polarity,

* holds only claim content stems, at least two of them;
* opens with a third-person subject pronoun ("they", "it", "he", "she": a closed class
  of English) and lacks only stems `d` writes before the first word it shares with `e`:
  the subject the pronoun stands for.

A clause without the pronoun is not read, even when it holds every claim stem: "the
contract was signed" holds the stems of "Contractors signed the contract" ("contractor"
and "contract" share a stem) and says nothing of who signed it.

"Vendors are not allowed to read the logs; they are allowed to read" does not restate
"Vendors are allowed to read the logs" (the second clause lacks "logs", which `d` writes
after the shared "allowed"), and "...; logs may be accessed" restates nobody's access
(no pronoun stands for "vendors").
"""

from __future__ import annotations

from collections.abc import Set

from groundwire.guards.grounding.lexical.evidence import Sentence
from groundwire.guards.grounding.lexical.text import word_set

__all__ = ["restated_with_pronoun"]

_SUBJECT_PRONOUNS = word_set("they it he she")


def restated_with_pronoun(
    claim_stems: Set[str],
    s: Sentence,
    d_id: int,
    claim_negated: bool,
    source_negated: Set[int],
) -> bool:
    """Whether a clause of sentence `s` of the claim's polarity restates the claim that
    its clause `d_id` states with the other polarity (module docstring)."""
    d_pos = s.clause_positions(d_id)
    for e_id, e_pos, e_list in s.clauses():
        if e_id == d_id or (e_id in source_negated) != claim_negated:
            continue
        e_stems = frozenset(e_list)
        if not e_stems <= claim_stems or len(e_stems) < 2:
            continue
        if not e_pos or s.lows[e_pos[0]] not in _SUBJECT_PRONOUNS:
            continue
        lacking = claim_stems - e_stems
        first_shared = next((k for k in d_pos if s.word_stems[k] in e_stems), None)
        if first_shared is None:
            continue
        before = {s.word_stems[k] for k in d_pos if k < first_shared and s.content[k]}
        if lacking <= before:
            return True
    return False
