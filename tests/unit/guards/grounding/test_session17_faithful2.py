"""Session 17, faithful restatements, round 2: claims a memory writer produces from a
source that older lexical rules refused, each with the attack of the same shape that
must still be caught.

* `crossing.py`: a clause's own word that is a predicate adverb ("and *now* works at
  Acme") stands in no argument's place, so a claim that puts the elided subject before
  the verb crosses no clauses;
* `particle_clauses.py`: a direction particle ("over", "under", "up", ...) the source
  writes itself in the clause that states the claim is not paired with its opposite in
  another clause;
* `negated_other_clause.py`: a negated clause about another doer ("Ben has not closed
  the ticket") is not read against a claim that a clause of its own polarity states
  ("Ana has closed it").
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.crossing import crossed_clauses
from groundwire.guards.grounding.lexical.evidence import ClaimClauses, evidence_for
from groundwire.guards.grounding.lexical.negated_other_clause import negation_of_another
from groundwire.guards.grounding.lexical.particle_clauses import said_in_its_own_clause
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

NOT = GroundingVerdict.NOT_SUPPORTED

# (claim, source): faithful, refused before this round's fixes
KEPT = [
    ("Ana works at Acme.", "Ana worked at Globex and now works at Acme."),
    ("Ana leads the team.", "Ana joined in 2020 and now leads the team."),
    ("The API serves JSON.", "The API served XML and now serves JSON."),
    ("Over 100 tickets were closed.", "Over 100 tickets were closed and under 100 were opened."),
    ("Over 50 jobs passed.", "Over 50 jobs passed, and under 10 jobs failed."),
    ("The ticket was closed by Ana.", "Ben has not closed the ticket; Ana has closed it."),
    ("Ana approved the budget.", "Ben did not approve the budget, but Ana approved it."),
    ("The ticket was not closed by Ana.", "Ben has closed the ticket; Ana has not closed it."),
]

# (claim, source): the same shapes turned into contradictions
CAUGHT = [
    ("Ana works at Acme.", "Ana worked at Globex and Bob now works at Acme."),
    ("Ana leads the team.", "Ana joined in 2020 and Ben now leads the team."),
    ("Alice deployed the patch.", "Alice fixed the bug and Bob then deployed the patch."),
    ("The old API was removed in 2023.", "The old API was deprecated in 2023 and removed in 2024."),
    ("Over 100 tickets were opened.", "Over 100 tickets were closed and under 100 were opened."),
    ("Under 100 tickets were closed.", "Over 100 tickets were closed and under 100 were opened."),
    ("Over 10 jobs failed.", "Over 50 jobs passed, and under 10 jobs failed."),
    ("The proxy is turned on.", "The cache is turned on and the proxy is turned off."),
    ("The ticket was closed by Ben.", "Ben has not closed the ticket; Ana has closed it."),
    ("Ana has not closed the ticket.", "Ben has not closed the ticket; Ana has closed it."),
    ("Ben approved the budget.", "Ben did not approve the budget, but Ana approved it."),
    ("The ticket was closed by Ana.", "Ben has closed the ticket; Ana has not closed it."),
]


@pytest.mark.parametrize(("claim", "source"), KEPT)
def test_kept(claim: str, source: str) -> None:
    report = verify_one_turn(claim, source, "user")
    assert report.verdict != NOT, report.reasoning


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_caught(claim: str, source: str) -> None:
    report = verify_one_turn(claim, source, "user")
    assert report.verdict == NOT, report.reasoning


def _crossed(claim: str, source: str) -> list[tuple[str, str]]:
    cw = claim_words(claim)
    ev = evidence_for(one_turn(source, "user"))
    uniq = {st for st, c in zip(cw.stems, cw.content, strict=True) if c}
    shared = [uniq & set(s.word_stems) for s in ev.sentences]
    return crossed_clauses(
        cw, ClaimClauses(cw, claim, cw.content), ev.sentences, shared, list(map(len, shared)), uniq
    )


def test_adverb_is_no_crossed_subject() -> None:
    assert _crossed("Ana works at Acme.", "Ana worked at Globex and now works at Acme.") == []


def test_a_subject_beside_the_adverb_still_crosses() -> None:
    assert _crossed("Ana works at Acme.", "Ana worked at Globex and Bob now works at Acme.") == [
        ("Ana", "Bob")
    ]


def test_particle_written_in_the_claims_clause() -> None:
    s = evidence_for(one_turn("Over 100 tickets were closed and under 100 were opened.", "user"))
    sentence = s.sentences[0]
    j = sentence.lows.index("under")
    # "over" stands in the clause holding all three claim stems; "under" in one holding one
    assert said_in_its_own_clause("over", {"100", "ticket", "close"}, sentence, j)
    # a tie (two stems each) keeps the pair: the claim may be the crossed one
    assert not said_in_its_own_clause("over", {"100", "ticket", "open"}, sentence, j)
    # the source never writes the claim's particle
    assert not said_in_its_own_clause("above", {"100", "ticket", "close"}, sentence, j)


def test_negated_clause_about_another() -> None:
    clauses = [frozenset({"ben", "close", "ticket"}), frozenset({"ana", "close"})]
    # "The ticket was closed by Ana": Ben's negated clause is another's
    assert negation_of_another(frozenset({"ticket", "close", "ana"}), 0, clauses, False, {0})
    # "The ticket was closed by Ben": Ben's clause lacks no claim word
    assert not negation_of_another(frozenset({"ticket", "close", "ben"}), 0, clauses, False, {0})
    # "Ana has not closed the ticket": the clause of its polarity has a word of its own
    assert not negation_of_another(frozenset({"ticket", "close", "ana"}), 1, clauses, True, {0})
