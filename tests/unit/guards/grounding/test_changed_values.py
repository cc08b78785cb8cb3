"""A value the claim changed where its neighbours changed too: an amount in the source's
unit ("10 million dollars" against "5 mln bucks") and a weekday or month the source gives
otherwise (`lexical/changed_values.py`). Each rule has the case it must now catch and the
controls that must stay as they were."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier, analyze
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()


def _turns(source: str) -> list[SourceTurn]:
    return [SourceTurn(id="s", text=source)]


def _verify(content: str, source: str) -> GroundingReport:
    turns = _turns(source)
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


def _conflicts(content: str, source: str) -> list[tuple[str, str]]:
    return analyze(content, _turns(source), set()).conflicts


CHAT = (
    "Priya: the vendor renewal is due soon . Omar: how much is it this year? . "
    "Priya: if we sign late we lose 5 mln dollars in discounts . "
    "Priya: please send me your approvals until next Wednesday . Omar: ok"
)


@pytest.mark.parametrize(
    ("claim", "pair"),
    [
        (
            "Priya warns that a late signature of the renewal could cost 10 million dollars.",
            ("10 million dollars", "5 mln dollars"),
        ),
        ("Signing late costs the team $2 million in discounts.", ("$2", "5 mln dollars")),
        ("Priya wants approvals for the renewal by Thursday.", ("Thursday", "Wednesday")),
    ],
)
def test_a_changed_value_contradicts(claim: str, pair: tuple[str, str]) -> None:
    assert pair in _conflicts(claim, CHAT)
    assert _verify(claim, CHAT).verdict is GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    "claim",
    [
        # the source's own amount and day
        "Priya warns that signing the renewal late would lose 5 million dollars.",
        "Priya wants approvals for the renewal by Wednesday.",
        # an approximation or a bound does not claim the value
        "Signing the renewal late could lose about 4 million dollars in discounts.",
        "Signing the renewal late could lose over 2 million dollars in discounts.",
        # a number without a unit, a unit of another kind
        "Priya and Omar discuss 2 renewal options for the vendor.",
        "The renewal discount would be lost within 3 days of signing late.",
    ],
)
def test_the_same_or_an_unclaimed_value_stays(claim: str) -> None:
    assert not any(
        c.startswith(("2 ", "3 ", "4 ", "about", "over", "Wednesday")) or c == "Wednesday"
        for c, _ in _conflicts(claim, CHAT)
    )


def test_a_day_the_source_leaves_implicit_is_an_added_detail() -> None:
    """No weekday in the source: "TGIF" or "tomorrow" is a day the summary may name."""
    chat = "Alex: wanna grab a beer tomorrow? TGIF . Jacob: sure, at 7"
    claim = "Alex and Jacob plan to grab a beer on Friday at 7."
    assert _conflicts(claim, chat) == []
    assert _verify(claim, chat).verdict is not GroundingVerdict.NOT_SUPPORTED


def test_a_month_needs_its_capital_and_a_source_month() -> None:
    source = "The audit runs in March. The team may extend it."
    assert ("June", "March") in _conflicts("The audit is planned for June.", source)
    # "may" is the modal, not the month; "March" is the source's own month
    assert _conflicts("The team may extend the audit in March.", source) == []


def test_an_amount_in_another_unit_of_money_is_not_compared() -> None:
    """A different number in a currency the source never uses has no amount of its unit
    to differ from (the same number in another currency is `units.unit_swaps`' case)."""
    source = "Omar said the vendor plan costs 5 euros per month for the whole team."
    claim = "The whole team pays 7 dollars for the vendor plan."
    assert not any(c.startswith("7") for c, _ in _conflicts(claim, source))
    changed = "The whole team is charged €7 monthly for the vendor plan."
    assert ("€7", "5 euros") in _conflicts(changed, source)
