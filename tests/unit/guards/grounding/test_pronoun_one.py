""" "one" before a relative pronoun is a pronoun, not a numeral (`text.pronoun_ones`):
"Alice is the one who approves the budget" states no count of one, so it is neither a
number missing from the source nor one the source contradicts. Controls: "one" as a
count still reads as a number."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier, analyze
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()


def _turns(source: str) -> list[SourceTurn]:
    return [SourceTurn(id="s", text=source, source="user")]


def _verify(content: str, source: str) -> GroundingReport:
    turns = _turns(source)
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


@pytest.mark.parametrize(
    "claim",
    [
        "Alice is the one who approves the budget.",
        "Alice is the one that approves the budget.",
        "The budget is the one which Alice approves.",
        "Alice is the only one whom Bob trusts.",
    ],
)
def test_one_before_a_relative_pronoun_is_no_number(claim: str) -> None:
    words = claim_words(claim)
    at = words.lows.index("one")
    assert words.numbers[at] is None
    assert analyze(claim, _turns("Alice approves the budget."), set()).missing_numbers == []


def test_the_one_who_is_not_contradicted_by_a_count_in_the_source() -> None:
    source = "Alice approves the budget and Bob approves the two hires."
    report = _verify("Alice is the one who approves the budget.", source)
    assert report.verdict is not GroundingVerdict.NOT_SUPPORTED
    assert "'one' where the source says" not in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Bob signs one contract.", "Bob signs two contracts."),
        ("Bob signed one of the three contracts.", "Bob signed two of the three contracts."),
    ],
)
def test_one_as_a_count_is_still_a_number(claim: str, source: str) -> None:
    words = claim_words(claim)
    assert "1" in words.numbers
    assert _verify(claim, source).verdict is GroundingVerdict.NOT_SUPPORTED


def test_one_before_a_noun_and_a_relative_pronoun_is_a_count() -> None:
    # "one server that failed": the relative pronoun follows the noun, not "one"
    assert "1" in claim_words("One server that failed was rebooted.").numbers
