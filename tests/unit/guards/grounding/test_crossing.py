"""Two facts of one source sentence crossed into one claim (docs/grounding.md §Crossed
clauses): the frame of one coordinated clause with a word of its sibling is not
supported; a claim that states one of the clauses, joins a subject to its elided
predicate, leaves a modifier out or takes an updated value is.

Each crossed claim is paired with claims from the same source that must stay
approvable, so the tests fail when the rule becomes too eager as well as when it misses.
"""

from __future__ import annotations

import pytest

from tests.unit.guards.grounding.test_assertion import NOT_SUPPORTED, approvable, verify

REGIONS = "The primary database is in us-east-1 and the replica is in eu-west-1."
API = "The old API was deprecated in 2023 and removed in 2024."
MEETINGS = "The meeting is on Tuesday and the review is on Thursday."
PEOPLE = "Bob fixed the login bug on Monday, and Alice deployed the patch on Tuesday."
PETS = "Alice has 3 cats and Bob has 2 dogs."


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The primary database is in eu-west-1", REGIONS),
        ("The replica is in us-east-1", REGIONS),
        ("The old API was removed in 2023", API),
        ("The review is on Tuesday", MEETINGS),
        ("Bob deployed the patch on Tuesday", PEOPLE),
        ("Alice has 2 dogs", PETS),
    ],
)
def test_a_claim_crossing_two_clauses_is_not_supported(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert "contradicts the source" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The primary database is in us-east-1", REGIONS),
        ("The replica is in eu-west-1", REGIONS),
        ("The old API was deprecated in 2023", API),
        ("The old API was removed in 2024", API),
        ("The review is on Thursday", MEETINGS),
        ("Alice deployed the patch on Tuesday", PEOPLE),
        ("Bob has 2 dogs", PETS),
        # a subject joined to its elided predicate, a modifier left out
        (
            "Bob deployed the patch on Tuesday",
            "Bob fixed the bug on Monday and deployed the patch on Tuesday.",
        ),
        ("Bob deployed the patch", "Bob fixed the bug and deployed the hot patch."),
        ("Alice has 2 dogs", "Alice has 3 cats and 2 dogs."),
        # a value taken from a sibling that updates it
        ("The deadline is March 10", "The deadline was March 3, but it was moved to March 10."),
    ],
)
def test_a_claim_stating_one_clause_stays_approvable(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert approvable(report), report.reasoning
