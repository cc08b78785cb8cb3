"""A WordNet synonym of an evaluative word counts as the source's own judgement only when
it judges alike (`lexical/judging_synonyms.py`): "great" is also "old" and "big", "good"
is also the verb-like "sound", which judge nothing; "excellent" / "splendid" still do."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import opinion as opinion_module
from groundwire.guards.grounding.lexical.judging_synonyms import judging_synonyms
from groundwire.guards.grounding.lexical.opinion import added_evaluations
from groundwire.topics.records import GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

CFG = GroundingConfig()
OLD_FRIEND = "Ana Ruiz, an old friend of the producer, directed the film in 2017."
KEYS = "The keys sound loud when you type on it."


def _turns(text: str) -> list[SourceTurn]:
    return one_turn(text, "user")


def _added(claim: str, source: str) -> list[str]:
    return [a.word for a in added_evaluations(claim, _turns(source))]


def _verify(claim: str, source: str) -> GroundingReport:
    return verify_one_turn(claim, source, "user", CFG)


def _all_synonyms() -> dict[str, tuple[float, frozenset[str]]]:
    """The lexicon as shipped, every synonym kept (the reading before the rule)."""
    return opinion_module._read_table("data/evaluative.tsv")


@pytest.mark.parametrize(
    ("claim", "source", "word"),
    [
        ("Ana Ruiz is a great director.", OLD_FRIEND, "great"),  # "old": an age
        ("The new keyboard is good.", KEYS, "good"),  # "sound": a verb here
    ],
)
def test_a_synonym_of_another_sense_is_no_judgement_of_the_source(
    claim: str, source: str, word: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _added(claim, source) == [word]
    assert _verify(claim, source).verdict is GroundingVerdict.NOT_SUPPORTED
    # without the rule the synonym passed the judgement as the source's own
    monkeypatch.setattr(opinion_module, "evaluative_words", _all_synonyms)
    assert _added(claim, source) == []


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The film is excellent.", "Critics found the film splendid."),
        ("The film is splendid.", "Critics found the film excellent."),
        ("The film is great.", "Critics found the film great."),  # the word itself
    ],
)
def test_a_synonym_that_judges_alike_is_still_the_sources_judgement(
    claim: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _added(claim, source) == []
    monkeypatch.setattr(opinion_module, "evaluative_words", _all_synonyms)
    assert _added(claim, source) == []


def test_only_evaluative_synonyms_of_the_same_sign_are_kept() -> None:
    words = {
        "great": (3.1, frozenset({"old", "big", "neat", "awful"})),
        "neat": (2.0, frozenset()),
        "awful": (-2.0, frozenset()),
    }
    nouns = {"old": (-1.0, frozenset())}  # a noun of the other sign does not count either
    got = judging_synonyms(words, nouns)
    assert got["great"] == (3.1, frozenset({"neat"}))
    assert got["awful"] == (-2.0, frozenset())
    # a noun of the same sign counts: "disaster" / "catastrophe" say one judgement
    got = judging_synonyms(
        {"awful": (-2.0, frozenset({"disaster"}))}, {"disaster": (-3.0, frozenset())}
    )
    assert got["awful"][1] == frozenset({"disaster"})
