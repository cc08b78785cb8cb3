"""A specific of an added sentence is an added fact (`lexical/added_facts.py`): the
PARTIAL rescue of a claim whose core the source states (a sharpened detail) does not
cover a name or number standing in a sentence of the claim's own."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier, added_facts
from groundwire.guards.grounding.lexical.added_facts import added_specific
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()
SOURCE = "Her novels have been translated into 42 languages and published worldwide."


def _turns() -> list[SourceTurn]:
    return [SourceTurn(id="s", text=SOURCE)]


def _stems() -> frozenset[str]:
    return frozenset(evidence_for(_turns()).stems)


def _verify(content: str) -> GroundingReport:
    turns = _turns()
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


ADDED = "She grew up near Porto. Her novels have been translated into 42 languages."


def test_a_name_in_a_sentence_of_the_claims_own_is_added() -> None:
    assert added_specific(ADDED, ["Porto"], _stems()) == "Porto"
    assert _verify(ADDED).verdict is GroundingVerdict.NOT_SUPPORTED


def test_the_rescue_returns_without_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control of the case above: with no share required, the core rescues it."""
    monkeypatch.setattr(added_facts, "SHARPENS", 0.0)
    assert _verify(ADDED).verdict is GroundingVerdict.PARTIAL


@pytest.mark.parametrize(
    ("claim", "specifics"),
    [
        # the specific sharpens a sentence the source states
        (
            "Her novels have been translated into 43 languages. They are published worldwide.",
            ["43"],
        ),
        # one sentence: its core's score decides, as before (the spec's sharpened plan)
        (
            "She grew up near Porto and her novels have been translated into 42 languages.",
            ["Porto"],
        ),
    ],
)
def test_a_sharpened_sentence_or_a_single_sentence_is_not_read(
    claim: str, specifics: list[str]
) -> None:
    assert added_specific(claim, specifics, _stems()) is None
