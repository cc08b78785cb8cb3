"""A given name that is also a common word opening a sentence, read as a name by its
syntax (`lexical/opening_names.py`, session 16b): an irregular past right after it
("Ana wrote"), or a possessive with no determiner ("Ana's laptop"). Before, "Ana's laptop
was stolen" against "Ben's laptop was stolen" was a name missing (`partial`, approved).
Each caught case is checked both ways; the controls read as without the rule.
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import names
from groundwire.guards.grounding.lexical.opening_names import (
    irregular_verb_form,
    possessive_opener,
)
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.records import SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_core_rescue import CFG, verify


def _turns(text: str) -> list[SourceTurn]:
    return [SourceTurn(id="t1", text=text, source="user")]


CAUGHT = (
    ("Ana's laptop was stolen.", "Ben's laptop was stolen.", "'Ana' where the source names 'Ben'"),
    ("Ana's laptop runs Linux.", "Ben's laptop runs Linux.", "'Ana' where the source names 'Ben'"),
    ("John Smith wrote the bundle.", "Ana wrote the JS bundle.", "where the source names 'Ana'"),
    ("Bill took the last train home.", "Mark took the last train home.", "'Bill' where"),
)


def _off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(names, "irregular_verb_form", lambda low: False)
    monkeypatch.setattr(names, "possessive_opener", lambda *args: False)


@pytest.mark.parametrize(("claim", "source", "said"), CAUGHT)
def test_a_name_opening_the_claim_swapped_is_a_contradiction(
    claim: str, source: str, said: str
) -> None:
    report = verify(claim, _turns(source))
    assert report.verdict == GroundingVerdict.NOT_SUPPORTED, report.reasoning
    assert said in report.reasoning
    assert grounding_blocks(report, CFG)


@pytest.mark.parametrize(("claim", "source", "said"), CAUGHT)
def test_without_the_rule_the_same_claims_pass(
    claim: str, source: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _off(monkeypatch)
    report = verify(claim, _turns(source))
    assert report.verdict != GroundingVerdict.NOT_SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The laptop of Ana was stolen.", "Ana's laptop was stolen."),
        ("Ana's laptop was stolen.", "The laptop of Ana was stolen."),
        ("Ana wrote the bundle.", "The bundle was written by Ana."),
        ("John Smith wrote the bundle.", "John Smith, our new hire, wrote the bundle."),
        ("Today's standup was cancelled.", "Ben said today's standup was cancelled."),
        # two common words, one of them not read as a name by its syntax: a title's
        ("Paper covers the basics.", "The Book covers the basics."),
    ],
)
def test_controls(claim: str, source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    turns = _turns(source)
    with_rule = verify(claim, turns)
    assert with_rule.verdict != GroundingVerdict.NOT_SUPPORTED, with_rule.reasoning
    _off(monkeypatch)
    assert with_rule == verify(claim, turns)


def test_the_shapes() -> None:
    assert irregular_verb_form("wrote") and irregular_verb_form("stole")
    assert not irregular_verb_form("writing") and not irregular_verb_form("laptop")
    for text, expected in (
        ("Ana's laptop", True),
        ("Today's standup", False),  # a word of time takes no determiner
        ("Security's review", False),  # an abstract noun
        ("Ana's", False),  # nothing possessed after it
        ("Ana's Linux box", False),  # no lower-case word right after
    ):
        w = claim_words(text)
        assert possessive_opener(0, w.raws, w.spans, text, names._ABSTRACT) is expected, text
