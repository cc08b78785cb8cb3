"""A claim typed in capitals is read with the source's case (`lexical/capitals.py`): its
common words are no names, so a swapped name or word typed in capitals is caught as it
is in ordinary case, and a faithful claim in capitals no longer reports its words as
names the source does not give. Claims in ordinary case are left as written."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import verifier as verifier_module
from groundwire.guards.grounding.lexical.capitals import restate_capitals
from groundwire.topics.records import GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

CFG = GroundingConfig()

# (claim in capitals, source): changed from the source, caught only when read by case
CAUGHT = [
    ("MARCO APPROVED THE BUDGET.", "Priya approved the budget on Monday."),
    ("THE SALES TEAM OWNS THE DASHBOARD.", "The payments team owns the dashboard."),
    ("PRIYA LOVES THE NEW BUDGET.", "Priya approved the budget on Monday."),
]

STORY = (
    "Judy Hopps is an optimistic rabbit from Bunnyburrow . Nick Wilde is a red fox . "
    "The film is funny and smart ."
)


def verify(claim: str, source: str, speaker: str = "user") -> GroundingReport:
    return verify_one_turn(claim, source, speaker, CFG)


def _rule_off(monkeypatch: pytest.MonkeyPatch) -> None:
    def as_written(text: str, turns: list[SourceTurn]) -> str:
        return text

    monkeypatch.setattr(verifier_module, "restate_capitals", as_written)


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_a_change_typed_in_capitals_is_caught(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert grounding_blocks(report, CFG)


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_without_the_rule_capitals_read_as_names_and_pass(
    claim: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _rule_off(monkeypatch)
    report = verify(claim, source)
    assert report.verdict is GroundingVerdict.PARTIAL
    assert not grounding_blocks(report, CFG)


def test_a_faithful_claim_in_capitals_reports_no_common_word_as_a_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    claim = "JUDY HOPPS IS A RABBIT WHO COMES FROM BUNNYBURROW"
    report = verify(claim, STORY, "document")
    assert report.verdict is GroundingVerdict.SUPPORTED
    assert "names not in the source" not in report.reasoning
    _rule_off(monkeypatch)
    report = verify(claim, STORY, "document")
    assert "names not in the source: COMES" in report.reasoning


def test_the_restatement() -> None:
    turns = one_turn("Judy Hopps joined the ZPD in Zootopia . The NFL is a league .", "document")
    # the source's case, a common word in lower case, an unknown word as a name
    assert restate_capitals("JUDY JOINED THE ZPD WITH GINNEFER", turns) == (
        "Judy joined the ZPD with Ginnefer"
    )
    assert restate_capitals("hI ... WE ARE IN ZOOTOPIA", turns) == "hI ... we are in Zootopia"
    # ordinary case, a lone acronym, and acronyms among lower-case words: as written
    for text in ("Judy joined the ZPD.", "NFL", "The NFL and the ZPD met in Zootopia."):
        assert restate_capitals(text, turns) == text
