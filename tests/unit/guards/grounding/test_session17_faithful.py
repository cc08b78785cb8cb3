"""Session 17, faithful restatements: claims a memory writer produces from a source
that older lexical rules refused (a false block costs the user a real memory), each
with the attack of the same shape that must still be caught.

* `fused_non.py`: "not trivial" / "nontrivial" / "non-trivial" are one statement, so a
  claim's "non" word is written as the source writes it before the words are compared;
* `guards/month_may.py`: "May" followed by a finite verb ("May was busy", "May saw
  prices rise") is the month, for the hedge guard and for the grounding's reading of a
  source sentence's mood;
* `irregular_past.py`: an -s word followed by an irregular past ("Prices rose") is a
  plural subject, not the owner's verb ("Prefers dark mode"), so "Prices rose by 5% in
  May" from a user's "In May, prices rose by 5%" is no claim attributed to the user;
* `missing_lacks.py`: "is missing X" is the source's "lacks X" when X is what it lacks;
* `negation_agreement.denied_denial_only`: a sentence whose only negations deny a
  negative verb ("never lacked funding") states the plain fact for the sentence-level
  negation count too.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.fused_non import restate_non_words
from groundwire.guards.grounding.lexical.missing_lacks import restate_missing
from groundwire.guards.hedge import HedgeDetector
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict, HedgeAction
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

NOT = GroundingVerdict.NOT_SUPPORTED

# (claim, source): faithful, refused before session 17's fix
KEPT = [
    ("The task is not trivial.", "The task is nontrivial."),
    ("The task is nontrivial.", "The task is not trivial."),
    ("The bug is not blocking.", "The bug is nonblocking."),
    ("The bug is nonblocking.", "The bug is not blocking."),
    ("The task is non-trivial.", "The task is nontrivial."),
    ("The task is nontrivial.", "The task is non-trivial."),
    ("The call isn't blocking.", "The call is nonblocking."),
    ("Prices rose by 5% in May.", "May saw prices rise by 5%, and prices rose by 5%."),
    ("Sales peaked in May.", "May was the peak month for sales; sales peaked."),
    ("Prices rose by 5% in May.", "In May, prices rose by 5%."),
    ("Costs grew by 10% last year.", "Last year, costs grew by 10%."),
    ("Sales fell in June.", "In June, sales fell."),
    ("The app is missing tests.", "The app lacks tests."),
    ("The team was missing a designer.", "The team lacked a designer."),
    ("We have funding.", "We have never lacked funding."),
    ("We have funding.", "We don't lack funding."),
]

# (claim, source): the same shapes turned into contradictions
CAUGHT = [
    ("The task is trivial.", "The task is nontrivial."),
    ("The task is nontrivial.", "The task is trivial."),
    ("The bug is blocking.", "The bug is nonblocking."),
    ("The bug is not nonblocking.", "The bug is nonblocking."),
    ("Part A is not trivial.", "Part A is trivial; part B is nontrivial."),
    ("Prices fell by 5% in May.", "May saw prices rise by 5%, and prices rose by 5%."),
    ("Prices fell by 5% in May.", "In May, prices rose by 5%."),
    # a subjectless claim about the owner where the user never speaks of themselves
    ("Prefers dark mode.", "Many people prefer dark mode."),
    ("The app is missing docs.", "The app lacks tests."),
    ("The app is missing tests.", "The app has tests."),
    ("The app is missing tests.", "The app lacks docs but has tests."),
    ("The app is missing tests.", "The app lacks docs, has tests."),
    ("We lack funding.", "We have never lacked funding."),
    ("We have funding.", "We have never had funding."),
    ("We stopped using Jenkins.", "We never stopped using Jenkins."),
]


@pytest.mark.parametrize(("claim", "source"), KEPT)
def test_kept(claim: str, source: str) -> None:
    report = verify_one_turn(claim, source, "user")
    assert report.verdict != NOT, report.reasoning


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_caught(claim: str, source: str) -> None:
    report = verify_one_turn(claim, source, "user")
    assert report.verdict == NOT, report.reasoning


def _turns(text: str) -> list[SourceTurn]:
    return one_turn(text, "user")


def test_non_word_written_as_the_source_writes_it() -> None:
    assert (
        restate_non_words("It is not trivial.", _turns("It is nontrivial.")) == "It is nontrivial."
    )
    assert (
        restate_non_words("It isn't trivial.", _turns("It is nontrivial.")) == "It is nontrivial."
    )
    assert (
        restate_non_words("It is nontrivial.", _turns("It is not trivial.")) == "It is not trivial."
    )
    assert restate_non_words("Nontrivial, yes.", _turns("Not trivial.")) == "Not trivial, yes."
    assert (
        restate_non_words("It is non-trivial.", _turns("It is nontrivial.")) == "It is nontrivial."
    )
    assert (
        restate_non_words("It is nontrivial.", _turns("It is non-trivial.")) == "It is non-trivial."
    )


def test_nothing_rewritten_towards_a_word_the_source_lacks() -> None:
    # the source writes "trivial" on its own: "not trivial" is compared as written
    source = _turns("Part A is trivial; part B is nontrivial.")
    assert restate_non_words("Part A is not trivial.", source) == "Part A is not trivial."
    # no "non" form and no "not X" in the source
    assert restate_non_words("It is nontrivial.", _turns("It is trivial.")) == "It is nontrivial."
    assert restate_non_words("It is not trivial.", _turns("It is easy.")) == "It is not trivial."
    # the source writes the claim's own spelling
    assert (
        restate_non_words("It is nontrivial.", _turns("It is nontrivial.")) == "It is nontrivial."
    )


@pytest.mark.parametrize(
    "text", ["May was busy.", "May saw record sales.", "May's revenue was $2M.", "MAY WAS BUSY."]
)
def test_month_may_is_no_hedge(text: str) -> None:
    assert HedgeDetector().analyze(text).action == HedgeAction.NONE


@pytest.mark.parametrize(
    "text", ["May have been fixed.", "Prices may rise.", "It may be slow.", "May I join?"]
)
def test_modal_may_stays_a_hedge(text: str) -> None:
    assert HedgeDetector().analyze(text).action == HedgeAction.REVIEW


def test_source_opening_with_the_month_is_asserted() -> None:
    # "May saw ..." states what happened; "Prices may rise" does not assert a rise
    asserted = verify_one_turn("Record sales came in May.", "May saw record sales came in.", "user")
    assert "hedged" not in asserted.reasoning, asserted.reasoning
    hedged = verify_one_turn("Prices rose by 5%.", "Prices may rise by 5%.", "user")
    assert "hedged" in hedged.reasoning, hedged.reasoning


def test_missing_written_as_the_source_lack() -> None:
    turns = _turns("The app lacks unit tests.")
    assert restate_missing("The app is missing unit tests.", turns) == "The app lacks unit tests."
    assert restate_missing("The apps were missing tests.", _turns("They lacked tests.")) == (
        "The apps lacked tests."
    )


def test_missing_kept_where_the_source_lacks_something_else() -> None:
    assert restate_missing("The app is missing tests.", _turns("The app lacks docs.")) == (
        "The app is missing tests."
    )
    # no object: "the key is missing" says the key is gone, not that it lacks something
    assert restate_missing("The key is missing.", _turns("The key lacks a label.")) == (
        "The key is missing."
    )
    # the source writes "missing" itself: compared as written
    assert restate_missing(
        "The app is missing tests.", _turns("Tests are missing; it lacks tests.")
    ) == ("The app is missing tests.")
