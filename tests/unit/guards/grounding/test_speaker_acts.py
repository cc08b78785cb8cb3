"""Who does what to whom when a transcript's speaker says "I" and "him"
(`lexical/speaker_acts.py`, session 13).

"Maria: I will bring him from the railway station" makes Maria the one who brings; a
claim that has Branwell bring Maria swaps the two. The role rules read the names around
the verb, and the source has pronouns there, so the claim was supported. Each caught
case is checked both ways; the controls must stay as they were.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import verifier
from groundwire.guards.grounding.lexical.speaker_acts import swapped_doers
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_core_rescue import CFG, verify

PARTY = [
    SourceTurn(id="t1", text="Maria: When is Branwell coming?"),
    SourceTurn(id="t2", text="Ann: Tomorrow! We should make a party for him."),
    SourceTurn(id="t3", text="Maria: I will bring him from the railway station."),
]
AIRPORT = [
    SourceTurn(id="t1", text="Dana: Is Lee landing tonight?"),
    SourceTurn(id="t2", text="Omar: Yes, I'll meet him at the airport."),
]
CAUGHT = (
    ("Branwell will bring Maria from the railway station.", PARTY, ("Branwell", "Maria")),
    ("Lee will meet Omar at the airport.", AIRPORT, ("Lee", "Omar")),
)


def test_the_doer_swapped_with_the_speaker_is_a_contradiction() -> None:
    for claim, turns, (doer, speaker) in CAUGHT:
        assert swapped_doers(claim, turns) == [(doer, speaker)], claim
        report = verify(claim, turns)
        assert report.verdict == GroundingVerdict.NOT_SUPPORTED, claim
        assert f"contradicts the source: {doer!r} where the source says {speaker!r}" in (
            report.reasoning
        ), claim
        assert grounding_blocks(report, CFG), claim


def test_without_the_rule_the_same_claims_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cases above fail without the rule: every word is the source's."""
    monkeypatch.setattr(verifier, "swapped_doers", lambda claim, turns: [])
    for claim, turns, _ in CAUGHT:
        report = verify(claim, turns)
        assert report.verdict != GroundingVerdict.NOT_SUPPORTED, claim
        assert not grounding_blocks(report, CFG), claim


def test_the_claims_stated_the_sources_way_are_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    controls = (
        ("Maria will bring Branwell from the railway station.", PARTY),
        ("Omar will meet Lee at the airport.", AIRPORT),
    )
    with_rule = [verify(claim, turns) for claim, turns in controls]
    monkeypatch.setattr(verifier, "swapped_doers", lambda claim, turns: [])
    for (claim, turns), report in zip(controls, with_rule, strict=True):
        assert swapped_doers(claim, turns) == [], claim
        assert report == verify(claim, turns), claim
        assert report.verdict != GroundingVerdict.NOT_SUPPORTED, claim


@pytest.mark.parametrize(
    ("claim", "turns"),
    [
        # both do it: each speaker says "I'll call him/her"
        (
            "Bob will call Alice tomorrow.",
            [
                SourceTurn(id="a", text="Alice: I'll call him tomorrow."),
                SourceTurn(id="b", text="Bob: Thanks, I will call her back too."),
            ],
        ),
        # the source has the claim's doer do it by name
        (
            "Branwell will bring Maria to the party.",
            [
                SourceTurn(id="a", text="Maria: I will bring him from the station."),
                SourceTurn(id="b", text="Ann: And Branwell will bring Maria to the party."),
            ],
        ),
        # no object pronoun: "I will bring the cake" says nothing of whom
        (
            "Ann will bring Maria a cake.",
            [
                SourceTurn(id="a", text="Maria: I will bring the cake."),
                SourceTurn(id="b", text="Ann: Great."),
            ],
        ),
        # not a transcript: a document's "I" is nobody's line
        ("Branwell will bring Maria.", [SourceTurn(id="a", text="I will bring him, said Maria.")]),
        # the speaker named in another clause, not as the verb's object
        ("Branwell will bring the cake, and Maria is happy.", PARTY),
    ],
)
def test_what_is_not_a_swap(claim: str, turns: list[SourceTurn]) -> None:
    assert swapped_doers(claim, turns) == []
