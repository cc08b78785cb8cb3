"""A doer the claim names where the source gives the act to another (`lexical/
passive_actors.py`, session 16b): "The migration was approved by Ana" against "Ana
rejected the migration; Ben approved it". Every word of the claim is the source's, so
overlap passes it; the rule reads the doer by syntax ("by" after a participle, a name
right before a past in "-ed"). Each caught case is checked both ways; the controls
read as they did without the rule.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import verifier
from groundwire.guards.grounding.lexical.passive_actors import acts, swapped_actors
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_core_rescue import CFG, verify


def _turns(text: str) -> list[SourceTurn]:
    return [SourceTurn(id="t1", text=text, source="user")]


CAUGHT = (
    (
        "The migration was approved by Ana.",
        "Ana rejected the migration; Ben approved it.",
        ("Ana", "Ben"),
    ),
    ("Ana approved the migration.", "The migration was approved by Ben.", ("Ana", "Ben")),
    (
        "The budget was approved by Dr. Ana Lima.",
        "Dr. Ben Cruz approved the budget; Ana Lima drafted it.",
        ("Ana", "Ben"),
    ),
    (
        "The outage was reported by Ben.",
        "Ben fixed the outage after Ana reported it.",
        ("Ben", "Ana"),
    ),
    # an irregular verb: "written" and "wrote" share WordNet's lemma
    ("The bundle was written by Ben.", "Ana wrote the bundle and Ben tested it.", ("Ben", "Ana")),
    (
        "Ben led the payments team.",
        "The payments team was led by Beatriz; Ben joined it in May.",
        ("Ben", "Beatriz"),
    ),
)


def _off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verifier, "swapped_actors", lambda claim, turns: [])


@pytest.mark.parametrize(("claim", "source", "pair"), CAUGHT)
def test_a_doer_swapped_is_a_contradiction(claim: str, source: str, pair: tuple[str, str]) -> None:
    turns = _turns(source)
    assert swapped_actors(claim, turns) == [pair]
    report = verify(claim, turns)
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED, report.reasoning
    assert f"{pair[0]!r} where the source says {pair[1]!r}" in report.reasoning
    assert grounding_blocks(report, CFG)


@pytest.mark.parametrize(("claim", "source", "pair"), CAUGHT)
def test_without_the_rule_the_same_claims_pass(
    claim: str, source: str, pair: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _off(monkeypatch)
    report = verify(claim, _turns(source))
    assert report.verdict != GroundingVerdict.NOT_SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # active and passive of one act, the same doer
        ("Ana approved the migration.", "The migration was approved by Ana."),
        ("The report was written by Ana.", "Ana wrote the report."),
        ("Beatriz led the payments team.", "The payments team was led by Beatriz."),
        ("The migration was approved by Ana.", "Ben proposed the migration and Ana approved it."),
        # joined doers, a title, either order
        ("The contract was signed by Dr. Lee and Ana.", "Ana and Dr. Lee signed the contract."),
        ("Dr. Fink and Dr. Probst joined in May.", "Dr. Probst and Dr. Fink joined in May."),
        # the source names no doer by a name ("the CTO"), or only denies one
        ("The migration was approved by Ana.", "The CTO approved the migration."),
        ("The migration was approved by Ana.", "Ben never approved the migration."),
        # another patient: no common word with what the claim's act was done to
        ("The PR was reviewed by Ana.", "Ben reviewed the budget."),
        # a possessive is no doer: the team acted
        ("The budget was approved by Ana.", "Ben's team approved the budget."),
        # an abstract noun opening the claim is no person ("Security reviewed it")
        ("Security reviewed the contract.", "Dana reviewed the contract and signed it."),
    ],
)
def test_controls(claim: str, source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    turns = _turns(source)
    assert swapped_actors(claim, turns) == []
    with_rule = verify(claim, turns)
    _off(monkeypatch)
    assert with_rule == verify(claim, turns)


def test_acts_read_the_doer_by_syntax() -> None:
    text = "The migration was formally approved by Ana and Ben, and Carl rejected the plan."
    w = claim_words(text)
    found = acts(w.raws, w.lows, w.stems, w.content, w.spans, text)
    assert [(a.doers, a.verb) for a in found] == [
        (("ana", "ben"), w.stems[4]),
        (("carl",), w.stems[11]),
    ]
    assert found[0].patient == frozenset({w.stems[1]})
    assert found[1].patient == frozenset({w.stems[13]})
