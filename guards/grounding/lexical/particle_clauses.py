"""A direction particle the source writes itself, in the clause that states the claim
(session 17, faithful restatements round 2).

`polarity._particle_pairs` pairs a claim particle with its opposite in the same phrase
of a source sentence ("over 100" / "under 100", "went up" / "went down"). A sentence of
two clauses can write both: "Over 100 tickets were closed and under 100 were opened".
The claim "Over 100 tickets were closed" restates the first clause word for word, yet
the second clause's "under 100" was read as the source's bound for the claim's.

A content word the source sentence writes is never paired at all (`polarity`, antonym
substitution: "the claim word's stem is in the sentence"); a particle is a function word
and had no such test. It gets a narrower one, by clause: the pair is dropped when the
sentence writes the claim's own particle in another clause that holds strictly more of
the claim's content stems than the clause of the opposite particle. A tie keeps the
pair, so "Over 100 tickets were opened" against the sentence above (each clause holds
two of its stems) and "Under 100 tickets were closed" (the "under" clause holds one)
stay contradictions.
"""

from __future__ import annotations

from collections.abc import Set

from groundwire.guards.grounding.lexical.evidence import Sentence

__all__ = ["said_in_its_own_clause"]


def said_in_its_own_clause(particle: str, claim_stems: Set[str], s: Sentence, j: int) -> bool:
    """Whether sentence `s` writes the claim's `particle` in a clause other than that of
    its opposite at `j`, one holding strictly more of `claim_stems` (module docstring)."""
    if particle not in s.lows:
        return False  # the cheap test first: most sources write only the opposite
    clause_of = s.clause_of()
    sets = s.clause_sets()
    theirs = len(claim_stems & sets[clause_of[j]])
    return any(
        low == particle
        and clause_of[k] != clause_of[j]
        and len(claim_stems & sets[clause_of[k]]) > theirs
        for k, low in enumerate(s.lows)
    )
