"""A state the claim says has ended ("has stopped approving", "used to approve", "no more",
"hardly ever") contradicts a source that states it plainly (`lexical/cessation.py`), and a
named subject's "used to" in the source is a habit given up; controls stay as they were."""

from __future__ import annotations

import pytest

from tests.unit.guards.grounding.test_assertion import NOT_SUPPORTED, verify

DEPLOYS = "Alice approves the deploys for the payments team."


@pytest.mark.parametrize(
    "claim",
    [
        "Alice has stopped approving the deploys for the payments team.",
        "Alice used to approve the deploys for the payments team.",
        "Alice approves the deploys for the payments team no more.",
        "Alice hardly ever approves the deploys for the payments team.",
        "Alice gave up approving the deploys for the payments team.",
    ],
)
def test_a_state_the_claim_says_has_ended_contradicts_a_plain_source(claim: str) -> None:
    report = verify(claim, DEPLOYS)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert "contradicts the source" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the source says it has ended too
        ("Alice has stopped approving the deploys.", "Alice has stopped approving the deploys."),
        ("Alice used to approve the deploys.", "Alice used to approve the deploys."),
        # no cue: "stopped" with an object, "used to" with no subject, "barely" = only just
        (
            "Alice stopped the deploys for the payments team.",
            "Alice stopped the deploys for the payments team.",
        ),
        (
            "The probe used to measure voltage is broken.",
            "The probe used to measure voltage is broken.",
        ),
        ("Alice barely passed the exam.", "Alice passed the exam in June."),
    ],
)
def test_controls_of_cessation(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert "contradicts the source" not in report.reasoning, report.reasoning
    assert report.verdict is not NOT_SUPPORTED, report.reasoning


def test_a_named_subjects_used_to_in_the_source_is_a_habit_given_up() -> None:
    report = verify(DEPLOYS, "Alice used to approve the deploys for the payments team.")
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    # a relative clause: "the tool (that) Alice used", no habit given up
    control = verify("Alice approves the deploys.", "The tool Alice used to approve them works.")
    assert "no longer so" not in control.reasoning, control.reasoning
