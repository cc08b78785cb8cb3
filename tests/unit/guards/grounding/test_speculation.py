"""The speaker's own conjecture (`lexical/speculation.py`): a claim that opens with the
speaker's belief ("I think ...", "I believe ...") states that belief, not the source's
fact, so it is NOT_SUPPORTED even when every word is the source's; the same fact stated
plainly, a hedge the source itself voices, and hedges that name no speaker or sit inside
the claim are left as they were."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical.speculation import own_conjecture
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()

CASES = [
    (
        "I think that the average game has only 11 minutes of gameplay.",
        "The average game has only 11 minutes of gameplay.",
        "An average NFL game only has 11 minutes of live gameplay.",
    ),
    (
        "I believe the launch of the billing service moved to Friday after the security review.",
        "The launch of the billing service moved to Friday after the security review.",
        "The launch of the billing service moved to Friday after the security review.",
    ),
]


def turns_of(text: str) -> list[SourceTurn]:
    return [SourceTurn(id="t1", text=text)]


def verify(content: str, text: str) -> GroundingReport:
    turns = turns_of(text)
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


@pytest.mark.parametrize(("guessed", "plain", "source"), CASES)
def test_a_conjecture_is_not_the_sources_fact(guessed: str, plain: str, source: str) -> None:
    report = verify(guessed, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "the speaker's own conjecture" in report.reasoning
    assert grounding_blocks(report, CFG)


@pytest.mark.parametrize(("guessed", "plain", "source"), CASES)
def test_the_same_fact_stated_plainly_passes(guessed: str, plain: str, source: str) -> None:
    report = verify(plain, source)
    assert not grounding_blocks(report, CFG)
    assert "conjecture" not in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the source voices the same conjecture: it is the source's
        ("I think the deadline is Friday.", "I think the deadline is Friday."),
        # a hedge that names no speaker qualifies the proposition (another rule's matter)
        ("Maybe the deadline is Friday.", "The deadline is Friday."),
        # a hedge inside the claim bears on its own clause
        (
            "Sean Parker co-founded Napster, i guess he persuaded Mark to drop the The.",
            "Sean Parker co-founded Napster and persuaded Mark to drop the The.",
        ),
        # knowledge-sharing frames are not conjectures (FaithDial labels them faithful)
        ("I heard that Venus does not tilt.", "Venus does not tilt."),
        ("Did you know Venus does not tilt?", "Venus does not tilt."),
        # no hedge at all
        ("The deadline is Friday.", "The deadline is Friday."),
    ],
)
def test_not_read_as_a_conjecture(claim: str, source: str) -> None:
    assert own_conjecture(claim, turns_of(source)) == []
    assert "conjecture" not in verify(claim, source).reasoning


def test_the_words_named() -> None:
    source = turns_of("The deadline is Friday.")
    assert own_conjecture("I'm pretty sure the deadline is Friday.", source) != []
    assert own_conjecture("I guess the deadline is Friday.", source) == ["I guess"]
