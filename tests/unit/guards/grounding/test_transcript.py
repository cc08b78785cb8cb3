"""A summary of a transcript that renames a participant contradicts it (`transcript.py`),
tested both ways: the renamed person or the renamed name in a speaker's lines is caught;
the right name, a date, a name with no competitor, a respelled name and a source that is
no transcript are read as before."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.guards.grounding.lexical.transcript import renamed_participants
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

REVIEW = (
    "Priya: can you review my pull request today? . Omar: sure, I'll ask Leila to help, "
    "she knows that code . Priya: great, thanks"
)
NOTES = (
    "Ned: do you have the notes for tomorrow's exam? . Tom: working on them . "
    "Tom: nearly finished the notes . Ned: ok"
)
BEER = "Alex: wanna grab a beer? TGIF . Jacob: sure, where? . Alex: new pub. 7?"
AROUND = "Priya: can you review my pull request today? . Omar: sure, I'll ask around for help"


def _turns(text: str) -> list[SourceTurn]:
    return [SourceTurn(id="doc", text=text, source="corpus")]


def _verify(content: str, text: str) -> GroundingReport:
    turns = _turns(text)
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(GroundingConfig()).verify_one(GroundingRequest(claim, turns))


def _renamed(content: str, text: str) -> list[tuple[str, str]]:
    turns = _turns(text)
    ev = evidence_for(turns)
    cw = claim_words(content)
    return renamed_participants(
        cw, content, cw.content, ev.sentences, ev.lows, ev.stems, ev.speakers, set()
    )


@pytest.mark.parametrize(
    ("claim", "source", "pair"),
    [
        # a name in the speaker's lines replaced ("Leila" -> "Nadia")
        (
            "Priya asks Omar to review her pull request, and Omar says Nadia knows that code.",
            REVIEW,
            ("Nadia", "Leila"),
        ),
        # the speaker who said it replaced: Tom's words put in John's mouth
        (
            "Ned asks about the notes for the exam and John says he is working on the notes.",
            NOTES,
            ("John", "Tom"),
        ),
    ],
)
def test_a_renamed_participant_contradicts_the_transcript(
    claim: str, source: str, pair: tuple[str, str]
) -> None:
    assert _renamed(claim, source) == [pair]
    report = _verify(claim, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert f"names {pair[0]!r} where the source names {pair[1]!r}" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the right name: nothing renamed
        (
            "Priya asks Omar to review her pull request, and Omar says Leila knows that code.",
            REVIEW,
        ),
        ("Ned asks about the notes for the exam and Tom says he is working on the notes.", NOTES),
        # a weekday the chat gives as "TGIF": a date, a sharpened detail
        ("Alex and Jacob plan to grab a beer on Friday at a new pub.", BEER),
        # an added name with no competitor: Omar names nobody, and the claim names Omar
        ("Omar will ask Nadia for help with the pull request.", AROUND),
        # the source's name written another way ("Annette" for "Anette")
        (
            "Caroline asks for music and Annette suggests Marco, a big star with easy lyrics.",
            "Caroline: any music tips? . Anette: Try Marco . Anette: a big star, easy lyrics",
        ),
    ],
)
def test_the_right_name_a_date_or_an_added_name_is_no_rename(claim: str, source: str) -> None:
    assert _renamed(claim, source) == []
    assert "where the source names" not in _verify(claim, source).reasoning


def test_an_added_name_with_no_competitor_is_no_rename_but_an_invented_name() -> None:
    """No competitor, so no rename (`transcript.py`); since session 14 a name a
    transcript never uses is not a sharpened detail either (`invented_names.py`): it was
    `partial` here before."""
    report = _verify("Omar will ask Nadia for help with the pull request.", AROUND)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "names not in the source: Nadia" in report.reasoning
    assert "where the source names" not in report.reasoning
    assert "names 'Nadia', whom the conversation never mentions" in report.reasoning


def test_a_source_that_is_no_transcript_has_nobody_to_rename() -> None:
    """The same words as a document without speaker labels: the rule does not apply."""
    doc = "Omar said he would ask Leila to help with the pull request, as she knows that code."
    claim = "Omar will ask Nadia to help with the pull request."
    assert _renamed(claim, doc) == []
