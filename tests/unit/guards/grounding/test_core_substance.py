"""A core of one shared word rescues nothing (`lexical/core_substance.py`, session 13).

The core rescue calls a claim PARTIAL when the claim without its unsupported numbers and
names scores PARTIAL on its own. A core of two content words, one of them the source's,
scores high on that single match, so a claim whose only assertion is its invented dates
was rescued. Each case below is checked both ways: with the rule it is NOT_SUPPORTED,
with the rule switched off it is PARTIAL; the controls keep their rescue.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import verifier
from groundwire.guards.grounding.lexical.core_substance import core_has_substance
from groundwire.guards.grounding.lexical.model import PARTIAL_THRESHOLD
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_core_rescue import CFG, verify

FESTIVAL = [
    SourceTurn(
        id="t1",
        text="The harvest festival is a public holiday in many countries, is celebrated by farmers "
        "and townspeople alike, and forms part of the autumn season.",
    )
]
ONE_WORD_CORE = "People celebrate it on the 12th and 13th"  # core: "People celebrate it on the and"
TWO_WORD_CORE = "Farmers celebrate it on the 12th and 13th"  # "farmers" and "celebrate" found


def test_a_core_of_one_shared_word_is_not_rescued() -> None:
    report = verify(ONE_WORD_CORE, FESTIVAL)
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED
    assert grounding_blocks(report, CFG)


def test_without_the_rule_the_same_claim_is_rescued(monkeypatch: pytest.MonkeyPatch) -> None:
    """The case above fails without the rule: the core rescue alone makes it PARTIAL."""
    monkeypatch.setattr(verifier, "core_has_substance", lambda core, stems: True)
    report = verify(ONE_WORD_CORE, FESTIVAL)
    assert report.score is not None and report.score < PARTIAL_THRESHOLD
    assert report.verdict == GroundingVerdict.PARTIAL


def test_a_core_of_two_shared_words_is_still_rescued() -> None:
    """The control: a score under the partial threshold, and a core that relates two of
    the source's words, so the rescue is what passes it."""
    for claim, source in (
        (TWO_WORD_CORE, FESTIVAL),
        (
            "Omar moved 40 GB of logs to Glacier in 2023",
            [SourceTurn(id="t1", text="Omar moved the logs to Glacier.")],
        ),
    ):
        report = verify(claim, source)
        assert report.score is not None and report.score < PARTIAL_THRESHOLD, claim
        assert report.verdict == GroundingVerdict.PARTIAL, claim
        assert not grounding_blocks(report, CFG), claim


def test_core_has_substance_counts_distinct_stems() -> None:
    stems = frozenset({"celebr", "farmer"})
    # one word repeated and inflected is still one word of the source
    assert not core_has_substance("celebrate celebrated celebrates on the day", stems)
    assert core_has_substance("farmers celebrate on the day", stems)
    assert not core_has_substance("", stems)
    # a core all of whose content words the source has is stated, however short
    assert core_has_substance("Was born in the", frozenset({"born"}))
    assert not core_has_substance("People were born in the", frozenset({"born"}))
