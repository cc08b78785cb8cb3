"""The speaker's past belief (`lexical/past_conjecture.py`): "I thought (that) X" or "I
figured X" opening a sentence states what the speaker believed, not what the source
attests: NOT_SUPPORTED. Deliberation ("I thought about"), assent ("I thought so"),
solving ("I figured out"), a belief inside a sentence and a source that voices the same
words are left as they were."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import verifier as verifier_module
from groundwire.guards.grounding.lexical.past_conjecture import past_conjecture
from groundwire.topics.records import GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

CFG = GroundingConfig()
# the coach's "We" gives the source a speaker, so the speaker's-own rule (a claim's "I"
# against a third-person source) leaves the claims to this one
TEAM = (
    "The author of the fantasy novels called the New England Patriots the Lannisters of "
    'the league. The Patriots play their home games at Gillette Stadium. "We will win '
    'again," the coach said.'
)


def _turns(text: str) -> list[SourceTurn]:
    return one_turn(text, "document")


def _verify(claim: str, source: str) -> GroundingReport:
    return verify_one_turn(claim, source, "document", CFG)


@pytest.mark.parametrize(
    ("claim", "said"),
    [
        ("i thought that the new england patriots were the lannisters of the league.", "i thought"),
    ],
)
def test_the_speakers_past_belief_is_not_supported(
    claim: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert past_conjecture(claim, _turns(TEAM)) == [said]
    report = _verify(claim, TEAM)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert f"the speaker's past belief: {said!r}" in report.reasoning
    # without the rule the claim passed on the source's own words
    monkeypatch.setattr(verifier_module, "past_conjecture", lambda *_: [])
    assert _verify(claim, TEAM).verdict is not GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The New England Patriots play their home games at Gillette Stadium.", TEAM),
        ("I thought about the Patriots playing their home games at Gillette Stadium.", TEAM),
        ("I figured out that the Patriots play their home games at Gillette Stadium.", TEAM),
        ("I thought so: the Patriots play their home games at Gillette Stadium.", TEAM),
        # not opening its sentence: the belief of someone the claim names
        ("The Patriots play at Gillette Stadium, as the fans I met thought.", TEAM),
        # the source's own words (a user restated)
        (
            "I thought the Patriots played their home games at Gillette Stadium.",
            "I thought the Patriots played their home games at Gillette Stadium.",
        ),
    ],
)
def test_no_past_belief_of_the_speaker_is_left_as_it_was(
    claim: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert past_conjecture(claim, _turns(source)) == []
    report = _verify(claim, source)
    assert "the speaker's past belief" not in report.reasoning
    monkeypatch.setattr(verifier_module, "past_conjecture", lambda *_: [])
    off = _verify(claim, source)
    assert (off.verdict, off.reasoning) == (report.verdict, report.reasoning)


def test_a_past_belief_after_a_reply_opens_its_sentence() -> None:
    """ "Yes, I figured ..." after a statement: the reply word does not hide the frame
    (read by the module; the verifier's score already blocks this claim for its "I")."""
    claim = (
        "The Patriots play their home games at Gillette Stadium. Yes, I figured the New "
        "England Patriots were the Lannisters of the league."
    )
    assert past_conjecture(claim, _turns(TEAM)) == ["i figured"]
