"""Who does what to whom, read over the claim's words that the source has
(`lexical/found_order.py`): a reversed order is caught though the claim adds words of its
own, and an order the source keeps, or a relation that reads both ways, is not."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier, analyze
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()
SOURCE = (
    "The billing service calls the ledger service on every refund. "
    "Priya traded her old laptop in exchange for a new monitor."
)


def _turns() -> list[SourceTurn]:
    return [SourceTurn(id="s", text=SOURCE)]


def _verify(content: str) -> GroundingReport:
    turns = _turns()
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, _turns()))


def _conflicts(content: str) -> list[tuple[str, str]]:
    return analyze(content, _turns(), set()).conflicts


@pytest.mark.parametrize(
    "claim",
    [
        # a reaction and a hedge of the claim's own: no source sentence holds every word
        "Wow. Apparently the ledger service calls the billing service on every refund.",
        "I was surprised to read that the ledger service calls the billing service.",
    ],
)
def test_a_reversed_order_is_read_past_added_words(claim: str) -> None:
    assert ("ledger", "billing") in _conflicts(claim)
    assert _verify(claim).verdict is GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    "claim",
    [
        # the source's order, with the same added words
        "Wow. Apparently the billing service calls the ledger service on every refund.",
        "I was surprised to read that the billing service calls the ledger service.",
        # "in exchange for" reads both ways
        "Apparently Priya got a new monitor in exchange for her old laptop.",
    ],
)
def test_the_source_order_or_a_two_way_relation_stays(claim: str) -> None:
    assert not any(c in ("ledger", "billing", "monitor", "laptop") for c, _ in _conflicts(claim))


def test_fewer_than_three_found_words_are_not_read() -> None:
    """Two words give no word between them to anchor an order."""
    assert _conflicts("Honestly, refunds make the ledger busy.") == []


def test_a_sentence_mostly_of_its_own_words_is_not_read() -> None:
    """Three found words among many of the claim's own may belong to any phrase."""
    claim = "My team honestly dislikes debugging whenever ledger calls billing during lunch."
    assert not any(c in ("ledger", "billing") for c, _ in _conflicts(claim))
    # the same order in a sentence of mostly found words is read
    assert ("ledger", "billing") in _conflicts("Sadly the ledger service calls billing.")


def test_a_relation_word_of_the_claims_own_between_the_two_is_no_swap() -> None:
    """A converse ("fewer" for the source's "more") reverses the order and says the same."""
    turns = [SourceTurn(id="s", text="The new cluster has more nodes than the old one.")]
    claim = "Honestly, the old cluster has fewer nodes than the new one."
    assert analyze(claim, turns, set()).conflicts == []
    reversed_claim = "Honestly, the old cluster has more nodes than the new one."
    assert analyze(reversed_claim, turns, set()).conflicts != []
