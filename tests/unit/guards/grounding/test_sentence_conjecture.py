"""The speaker's conjecture opening a later sentence of the claim
(`lexical/sentence_conjecture.py`): "X. I think Y." states the speaker's belief as much
as "I think Y." does, so it is NOT_SUPPORTED; a hedge after a comma inside a sentence, a
hedge the source voices, and a claim of plain sentences are left as they were."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical import verifier as verifier_module
from groundwire.guards.grounding.lexical.sentence_conjecture import sentence_conjecture
from groundwire.guards.grounding.lexical.speculation import own_conjecture
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()

GAME = "An average NFL game only has 11 minutes of live gameplay. The season has 17 weeks."
LAUNCH = "The launch of the billing service moved to Friday after the security review."

# (claim whose second sentence opens with a conjecture, the same claim stated plainly, source)
CASES = [
    (
        "The season has 17 weeks. I think an average game has only 11 minutes of gameplay.",
        "The season has 17 weeks. An average game has only 11 minutes of gameplay.",
        GAME,
    ),
    (
        "The billing launch moved to Friday! I believe it moved after the security review.",
        "The billing launch moved to Friday! It moved after the security review.",
        LAUNCH,
    ),
]


def turns_of(text: str) -> list[SourceTurn]:
    return [SourceTurn(id="t1", text=text)]


def verify(content: str, text: str) -> GroundingReport:
    turns = turns_of(text)
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


@pytest.mark.parametrize(("guessed", "plain", "source"), CASES)
def test_a_later_sentences_conjecture_is_not_the_sources_fact(
    guessed: str, plain: str, source: str
) -> None:
    report = verify(guessed, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "the speaker's own conjecture" in report.reasoning
    assert grounding_blocks(report, CFG)


@pytest.mark.parametrize(("guessed", "plain", "source"), CASES)
def test_with_the_claims_opening_only_it_passed(
    guessed: str, plain: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verifier_module, "sentence_conjecture", own_conjecture)
    report = verify(guessed, source)
    assert "conjecture" not in report.reasoning
    assert not grounding_blocks(report, CFG)


@pytest.mark.parametrize(("guessed", "plain", "source"), CASES)
def test_the_same_facts_stated_plainly_pass(guessed: str, plain: str, source: str) -> None:
    report = verify(plain, source)
    assert not grounding_blocks(report, CFG)
    assert "conjecture" not in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # inside a sentence, after a comma: bears on its own clause (session 12)
        ("The season has 17 weeks, i guess the game has 11 minutes of play.", GAME),
        # the source voices the same hedge
        ("The launch moved. I think it moved to Friday.", "I think it moved to Friday. " + LAUNCH),
        # a hedge that names no speaker
        ("The launch moved. Maybe it moved to Friday.", LAUNCH),
        # a decimal point is no sentence end
        ("The cables are 2.7 inches wide, I think.", "The cables are only 2.7 inches wide."),
        # plain sentences
        ("The launch moved to Friday. It followed the security review.", LAUNCH),
    ],
)
def test_other_hedges_and_plain_claims_are_not_read(claim: str, source: str) -> None:
    assert sentence_conjecture(claim, turns_of(source)) == []


def test_the_opening_is_read_as_before() -> None:
    claim = "I think the launch moved to Friday."
    assert sentence_conjecture(claim, turns_of(LAUNCH)) == own_conjecture(claim, turns_of(LAUNCH))
    assert sentence_conjecture(claim, turns_of(LAUNCH))
