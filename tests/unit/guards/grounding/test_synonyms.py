"""A common noun the source writes as its synonym (`lexical/synonyms.py`): "attorney" /
"lawyer", "kids" / "children", "movie" / "film" share the synset of their first senses in
WordNet and count as the source's word; a rarer sense ("picture"), a genus ("vehicle"),
a sister kind ("coffee" / "tea"), a word that is mainly a verb ("help") and a word with
a capital are left as words the source lacks, and a synonym does not hide a changed
negation."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import features as features_module
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.features import analyze
from groundwire.guards.grounding.lexical.synonyms import synonym_in_source
from groundwire.topics.records import GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

CFG = GroundingConfig()

# (claim, source): the claim names a thing by a synonym of the source's word
CAUGHT = [
    (
        "The attorney reviewed the contract on Monday.",
        "The lawyer reviewed the contract on Monday.",
    ),
    ("The kids visited the museum on Friday.", "The children visited the museum on Friday."),
    ("The movie premiered in Toronto in 2019.", "The film premiered in Toronto in 2019."),
]

# (claim, source, the claim word that stays unsupported)
LEFT = [
    # "picture" is a film only in a rarer sense (its first: a visual representation)
    (
        "The picture premiered in Toronto in 2019.",
        "The film premiered in Toronto in 2019.",
        "picture",
    ),
    # a genus is not its kind
    (
        "The vehicle was parked outside the office.",
        "The car was parked outside the office.",
        "vehicle",
    ),
    # "help" is mainly a verb: not in the table of nouns
    (
        "The vendor offered help with the migration.",
        "The vendor offered assistance with the migration.",
        "help",
    ),
]


def turns_of(text: str) -> list[SourceTurn]:
    return one_turn(text, None)


def verify(content: str, text: str) -> GroundingReport:
    return verify_one_turn(content, text, None, CFG)


def _rule_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(features_module, "synonym_in_source", lambda raw, low, ev: False)


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_a_synonym_of_the_sources_noun_is_found(claim: str, source: str) -> None:
    a = analyze(claim, turns_of(source), set())
    assert a.missing_words == []
    report = verify(claim, source)
    assert report.verdict is GroundingVerdict.SUPPORTED
    assert not grounding_blocks(report, CFG)


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_without_the_rule_the_synonym_is_a_word_the_source_lacks(
    claim: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _rule_off(monkeypatch)
    assert len(analyze(claim, turns_of(source), set()).missing_words) == 1
    assert verify(claim, source).verdict is GroundingVerdict.PARTIAL


def test_a_faithful_paraphrase_is_no_longer_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shape of the FaithDial error this was built for: a noun by its synonym in a
    claim that also leaves some of the source out."""
    claim = "Our attorney drafted the lease for the new office."
    source = "The lawyer drafted the lease for the new office in March."
    assert not grounding_blocks(verify(claim, source), CFG)
    _rule_off(monkeypatch)
    assert grounding_blocks(verify(claim, source), CFG)


@pytest.mark.parametrize(("claim", "source", "word"), LEFT)
def test_other_wordnet_relations_are_not_synonyms(claim: str, source: str, word: str) -> None:
    assert analyze(claim, turns_of(source), set()).missing_words == [word]
    assert verify(claim, source).verdict is GroundingVerdict.PARTIAL


def test_a_sister_kind_stays_a_contradiction() -> None:
    report = verify("She ordered coffee at the meeting.", "She ordered tea at the meeting.")
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "'coffee' where the source says 'tea'" in report.reasoning


def test_a_synonym_does_not_hide_a_changed_negation() -> None:
    report = verify(
        "The attorney said the contract was signed.", "The lawyer said the contract was not signed."
    )
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "negation differs" in report.reasoning


def test_only_lower_case_words_are_read() -> None:
    ev = evidence_for(turns_of("The lawyer reviewed the contract."))
    assert synonym_in_source("attorney", "attorney", ev)
    assert synonym_in_source("attorneys", "attorneys", ev)  # a plural by its singular
    assert not synonym_in_source("Attorney", "attorney", ev)  # a name, or a title
    assert not synonym_in_source("judge", "judge", ev)
    assert not synonym_in_source("xyzzy", "xyzzy", ev)  # no WordNet noun
