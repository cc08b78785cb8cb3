"""Questions a claim asks (`lexical/asked_questions.py`): a sentence that puts a question
to the listener ("Did you know ...?", "Do you like football? The NFL ...") or the
speaker's "I wonder if ..." asks rather than states, whatever words it shares with the
source: NOT_SUPPORTED. A question without "you", a reported question, a question inside
quotation marks, the statements alone and a source that voices the same wondering are
left as they were."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import verifier as verifier_module
from groundwire.guards.grounding.lexical.asked_questions import asked_questions
from groundwire.topics.records import GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

CFG = GroundingConfig()
LEAGUE = (
    "The league has no written rule against female players; women would be allowed if "
    "they met the eligibility requirements. An average game has only 11 minutes of play."
)
CABLES = (
    "The cables carrying phone and internet data across oceans are only 2.7 inches in "
    "diameter and lie on the ocean floor."
)


def _turns(text: str) -> list[SourceTurn]:
    return one_turn(text, "document")


def _verify(claim: str, source: str) -> GroundingReport:
    return verify_one_turn(claim, source, "document", CFG)


@pytest.mark.parametrize(
    ("claim", "source", "asked"),
    [
        (
            "Did you know the league has no written rule against female players?",
            LEAGUE,
            "Did you know the league has no written rule against female players?",
        ),
        (
            "Do you follow the league? It has no written rule against female players.",
            LEAGUE,
            "Do you follow the league?",
        ),
        (
            "yes, it is. did you know that the cables carrying internet data across oceans "
            "are only 2.7 inches in diameter?",
            CABLES,
            "did you know that the cables carrying internet data across oceans are only 2.7 "
            "inches in diameter?",
        ),
        (
            "yes. did you know women would be allowed if they met the eligibility requirements",
            LEAGUE,
            "did you know women would be allowed if they met the eligibility requirements",
        ),
        (
            "The cables lie on the ocean floor. I wonder if the cables carrying phone data "
            "are only 2.7 inches in diameter.",
            CABLES,
            "I wonder if the cables carrying phone data are only 2.7 inches in diameter.",
        ),
    ],
)
def test_a_claim_that_asks_is_not_supported(
    claim: str, source: str, asked: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert asked_questions(claim, _turns(source)) == [asked]
    report = _verify(claim, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "a question the claim asks, not a fact" in report.reasoning
    # without the rule the claim passed on the source's own words
    monkeypatch.setattr(verifier_module, "asked_questions", lambda *_: [])
    assert _verify(claim, source).verdict is not GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the statement alone, and a decimal point that ends no sentence
        ("The league has no written rule against female players.", LEAGUE),
        ("The cables across oceans are only 2.7 inches in diameter.", CABLES),
        # a reported question is a fact about the conversation
        ("Mike asks Ann: do you have the eligibility requirements?", LEAGUE),
        # a question inside quotation marks (a title, someone's words)
        ('The song "Where Are You?" has no written rule against female players.', LEAGUE),
        (
            '"Do you play" asks the league, which has no written rule against female players.',
            LEAGUE,
        ),
        # a condition, not a question: "had" and "were" before "you" open one too
        ("Had you met the eligibility requirements, women would be allowed.", LEAGUE),
        # the speaker's wondering, voiced by the source itself (a user restated)
        (
            "I wonder if the league has a written rule against female players.",
            "I wonder if the league has a written rule against female players.",
        ),
        # someone else's wondering, reported
        ("She wondered whether the league has a rule against female players.", LEAGUE),
    ],
)
def test_a_claim_that_asks_nothing_is_left_as_it_was(
    claim: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert asked_questions(claim, _turns(source)) == []
    report = _verify(claim, source)
    assert "a question the claim asks" not in report.reasoning
    monkeypatch.setattr(verifier_module, "asked_questions", lambda *_: [])
    off = _verify(claim, source)
    assert (off.verdict, off.reasoning) == (report.verdict, report.reasoning)


def test_the_statements_of_an_asking_claim_stay_supported() -> None:
    claim = "The league has no written rule against female players."
    assert _verify(claim, LEAGUE).verdict is GroundingVerdict.SUPPORTED


def test_a_question_without_the_listener_is_left_to_the_other_checks() -> None:
    """ "Is it on the ocean floor?" names no listener: `assertion.asks_only` reads it (a
    claim of questions only), this rule does not."""
    claim = "The cables are 2.7 inches in diameter. Are they on the ocean floor?"
    assert asked_questions(claim, _turns(CABLES)) == []
