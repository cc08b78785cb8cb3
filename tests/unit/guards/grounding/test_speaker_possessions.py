"""The speaker's own things (`lexical/speaker_possessions.py`): "my dog", "Mine is dense
and white" against a source where nobody speaks of themselves state something of the
speaker's own that the source cannot attest: NOT_SUPPORTED. A source with a speaker (a
user's own words), the interjection "oh my", a title ("My Fair Lady") and a quotation
are left as they were."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import verifier as verifier_module
from groundwire.guards.grounding.lexical.speaker_possessions import speaker_possessions
from groundwire.topics.records import GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

CFG = GroundingConfig()
COAT = "The Samoyed has a thick double coat that is dense and white, and sheds twice a year."
USER = "My Samoyed has a thick double coat that is dense and white."
MUSICAL = "My Fair Lady is a musical with a thick score that is dense and white hot."


def _turns(text: str) -> list[SourceTurn]:
    return one_turn(text, "document")


def _verify(claim: str, source: str) -> GroundingReport:
    return verify_one_turn(claim, source, "document", CFG)


@pytest.mark.parametrize(
    ("claim", "word"),
    [
        ("Oh my! Mine is a thick double coat that is dense and white.", "Mine"),
        ("My Samoyed has a thick double coat that is dense and white.", "My"),
        ("The coat of my Samoyed is thick, dense and white.", "my"),
    ],
)
def test_the_speakers_own_thing_is_not_supported(
    claim: str, word: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert speaker_possessions(claim, _turns(COAT)) == [word]
    report = _verify(claim, COAT)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert f"the speaker's own, unattested: {word!r}" in report.reasoning
    # without the rule the claim passed on the source's own words
    monkeypatch.setattr(verifier_module, "speaker_possessions", lambda *_: [])
    assert _verify(claim, COAT).verdict is not GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # a user's own words: someone in the source speaks of themselves
        ("My Samoyed has a thick double coat that is dense and white.", USER),
        # the interjection, and no possessive at all
        ("Oh my! The Samoyed has a thick double coat that is dense and white.", COAT),
        ("The Samoyed has a thick double coat that is dense and white.", COAT),
        # a title inside the sentence, and a quotation
        ("The musical My Fair Lady has a thick score that is dense.", MUSICAL),
        ('The breeder calls it "my dense and white coat" on the Samoyed page.', COAT),
    ],
)
def test_no_possession_of_the_speaker_is_left_as_it_was(
    claim: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert speaker_possessions(claim, _turns(source)) == []
    report = _verify(claim, source)
    assert "the speaker's own, unattested" not in report.reasoning
    monkeypatch.setattr(verifier_module, "speaker_possessions", lambda *_: [])
    off = _verify(claim, source)
    assert (off.verdict, off.reasoning) == (report.verdict, report.reasoning)
