"""The gate of the speaker's-own rule (`lexical/speaking.py`): a lone "i" that is a letter
of a dotted abbreviation or a Roman numeral after a name is nobody speaking, so "I ..."
about the speaker's own doings stays unattested; the pronoun still opens the gate."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.speaking import someone_speaks
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()


def verify(content: str, text: str) -> GroundingReport:
    turns = [SourceTurn(id="t1", text=text)]
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


def speaks(text: str) -> bool:
    turns = [SourceTurn(id="t1", text=text)]
    return someone_speaks(turns, evidence_for(turns).lows)


@pytest.mark.parametrize(
    "text",
    [
        "The S.H.I.E.L.D. agents arrest Stane in the final act.",
        "Fish exclude the tetrapods (i.e. the amphibians and reptiles).",
        "Ohio State competes in NCAA Division I Football.",
        "Many of the soldiers fought in World War I.",
        "The Bible (from Koine Greek τὰ βιβλία, tà biblía) is a collection of texts.",
        "Nobody here talks about themselves.",
    ],
)
def test_letters_and_numerals_are_nobody_speaking(text: str) -> None:
    assert not speaks(text)


@pytest.mark.parametrize(
    "text",
    [
        "In France I fought beside Tom.",  # a name, then the pronoun and its verb
        "Whoa! I think I get it.",
        "Tom and I went to Paris.",
        "I went there.",
        "The agents arrest Stane, as my friend saw it.",
        "We moved the ledger.",
    ],
)
def test_the_pronoun_is_someone_speaking(text: str) -> None:
    assert speaks(text)


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        (
            "I watched the S.H.I.E.L.D. agents arrest Stane",
            "The S.H.I.E.L.D. agents arrest Stane in the final act.",
        ),
        ("I fought in World War I.", "Many of the soldiers fought in World War I."),
        (
            "I played in NCAA Division I Football for Ohio State",
            "Ohio State competes in NCAA Division I Football.",
        ),
    ],
)
def test_the_speakers_own_doings_against_letters_are_blocked(claim: str, text: str) -> None:
    report = verify(claim, text)
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED
    assert "speaker's own" in report.reasoning
    assert grounding_blocks(report, CFG)


def test_a_source_where_someone_speaks_still_attests_them() -> None:
    report = verify("I fought in France", "In France I fought beside Tom.")
    assert report.verdict == GroundingVerdict.SUPPORTED
    assert not grounding_blocks(report, CFG)
