"""A date restated in another form is the source's date (`lexical/restated_dates.py`),
and a pseudo-cleft or a trailing "NOT" is a negation (`lexical/negation_forms.py`)."""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.negation_forms import plain_negation
from groundwire.guards.grounding.lexical.restated_dates import restate_dates
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_assertion import NOT_SUPPORTED, verify

SUPPORTED = GroundingVerdict.SUPPORTED
ISO = "The database migration finished on 2024-03-06."
PLAIN = "Alice approves the deploys."


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The database migration finished on March 6, 2024.", ISO),
        ("The database migration finished on 6 March 2024.", ISO),
        ("The database migration finished on Mar. 6th, 2024.", ISO),
        (
            "The database migration finished on 2024-03-06.",
            ISO.replace("2024-03-06", "6 March 2024"),
        ),
    ],
)
def test_a_date_in_another_form_is_supported(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    "claim",
    [
        "The database migration finished on March 7, 2024.",
        "The database migration finished on 6 May 2024.",
        "The database migration finished on 6 March 2023.",
    ],
)
def test_a_changed_date_still_contradicts(claim: str) -> None:
    assert verify(claim, ISO).verdict is NOT_SUPPORTED


def test_only_a_full_date_the_source_states_is_restated() -> None:
    turns = [SourceTurn(id="t", text=ISO, source="corpus")]
    assert restate_dates("It finished in March 2024.", turns) == "It finished in March 2024."
    assert restate_dates("It finished on March 7, 2024.", turns) == "It finished on March 7, 2024."
    assert restate_dates("It finished on March 6, 2024.", turns) == "It finished on 2024-03-06."


@pytest.mark.parametrize(
    "claim",
    [
        "It was not Alice who approved the deploys.",
        "Alice is not the one who approves the deploys.",
        "Alice isn't the person that approves the deploys.",
        "Alice approves the deploys - NOT.",
        "Alice approves the deploys... not!",
        "Alice approves the deploys, NOT!",
    ],
)
def test_a_denial_in_another_form_contradicts(claim: str) -> None:
    report = verify(claim, PLAIN)
    assert report.verdict is NOT_SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the source's own pseudo-cleft, another spelling of it
        (
            "Alice is not the one who approves the deploys.",
            "Alice isn't the one who approves the deploys; Bob does.",
        ),
        ("Alice approves the deploys, not Bob.", "Alice approves the deploys, not Bob."),
    ],
)
def test_the_same_statement_stays_supported(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is SUPPORTED, report.reasoning


def test_an_affirmative_pseudo_cleft_is_no_denial() -> None:
    # (partial, as before: "one" reads as a number the source lacks; never a contradiction)
    assert verify("Alice is the one who approves the deploys.", PLAIN).verdict is not NOT_SUPPORTED


@pytest.mark.parametrize(
    "text",
    ["Is the cache on or not?", "We ship it, whether or not.", "Alice approves, not Bob."],
)
def test_questions_and_contrasts_are_not_rewritten(text: str) -> None:
    assert plain_negation(text) == text
