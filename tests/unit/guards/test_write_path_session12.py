"""Session 12's red team of the write path (bench/probe_write_path.py): model output the
provenance signatures missed, the shrug as admitted uncertainty, a state the claim says
has ended (`lexical/cessation.py`) and a named subject's "used to" in the source. Each
catch has a control that must stay as it was."""

from __future__ import annotations

import pytest

from groundwire.guards.config import ProvenanceConfig
from groundwire.guards.hedge import analyze
from groundwire.guards.provenance import check_provenance
from groundwire.topics.records import Claim
from groundwire.topics.vocab import HedgeAction, HedgeCategory
from tests.unit.guards.grounding.test_assertion import NOT_SUPPORTED, verify

FACT = "We chose Postgres for billing."
DEPLOYS = "Alice approves the deploys for the payments team."


def _eligible(text: str) -> bool:
    claim = Claim(
        claim_id="c1",
        tenant_id="t",
        content=FACT,
        source="ai_synthesis",
        source_turns=[{"id": "t1", "text": text, "source": "corpus"}],
    )
    return check_provenance(claim, ProvenanceConfig()).eligible_turn_ids == ["t1"]


@pytest.mark.parametrize(
    "text",
    [
        "Bard: We chose Postgres for billing.",
        "Llama-3: We chose Postgres for billing.",
        "Response from GPT-4: We chose Postgres for billing.",
        "Output of Claude: We chose Postgres for billing.",
        "### Assistant\nWe chose Postgres for billing.",
        "This summary was written by Mistral. We chose Postgres for billing.",
    ],
)
def test_model_output_by_other_names_is_no_evidence(text: str) -> None:
    assert not _eligible(text)


@pytest.mark.parametrize(
    "text",
    [
        "The response from the team: we chose Postgres for billing.",
        "### Assistant manager notes\nWe chose Postgres for billing.",
        "Our bard wrote a song. We chose Postgres for billing.",
        "User: We chose Postgres for billing.",
    ],
)
def test_ordinary_text_with_those_words_stays_evidence(text: str) -> None:
    assert _eligible(text)


@pytest.mark.parametrize(
    "text",
    ["We use Redis for sessions ¯\\_(ツ)_/¯", "We use Redis 🤷", "We use Redis 🤷\u200d♀️ now"],
)
def test_the_shrug_admits_uncertainty(text: str) -> None:
    report = analyze(text)
    assert report.action is HedgeAction.BLOCK
    assert report.category is HedgeCategory.ADMITTED_UNCERTAINTY


@pytest.mark.parametrize("text", ["We use Redis for sessions.", "The ツアー starts in May 2024."])
def test_no_shrug_no_hedge(text: str) -> None:
    assert analyze(text).action is HedgeAction.NONE


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
