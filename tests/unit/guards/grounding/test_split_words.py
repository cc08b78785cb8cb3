"""A word the claim writes in two parts (`lexical/split_words.py`): "di caprio" against
a source's "DiCaprio" is the source's word, not two words and a name it never gives; a
function word ("in to" / "into"), parts the source uses as words of their own, and a
split the source never closes are left as written."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical import verifier as verifier_module
from groundwire.guards.grounding.lexical.split_words import close_split_words
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()

CAST = "Cast: Leonardo DiCaprio as Dom Cobb, a thief who steals secrets from dreams."
SITE = "The recipes are on the website of the bakery, with photos of every cake."

# (claim written open, source that writes the word closed)
CASES = [
    ("It has Di Caprio in it.", CAST),
    ("The recipes are on the web site of the bakery.", SITE),
]


def turns_of(text: str) -> list[SourceTurn]:
    return [SourceTurn(id="t1", text=text)]


def verify(content: str, text: str) -> GroundingReport:
    turns = turns_of(text)
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


@pytest.mark.parametrize(("claim", "source"), CASES)
def test_a_word_written_open_is_the_sources_word(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is not GroundingVerdict.NOT_SUPPORTED
    assert not grounding_blocks(report, CFG)


@pytest.mark.parametrize(("claim", "source"), CASES)
def test_without_the_rule_the_same_claims_are_blocked(
    claim: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verifier_module, "close_split_words", lambda text, turns: text)
    assert grounding_blocks(verify(claim, source), CFG)


def test_the_claim_takes_the_sources_written_form() -> None:
    assert close_split_words("it has di caprio in it", turns_of(CAST)) == "it has DiCaprio in it"
    assert close_split_words("Di Caprio and Page", turns_of(CAST)) == "DiCaprio and Page"


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # a function word closes into another word with another sense
        ("They walked in to the office.", "They walked into the office."),
        ("Every one of them came.", "Everyone came to the party."),
        # both parts are words of the source: they may mean themselves
        ("Her face book is red.", "Her face was red, her book too. She used Facebook daily."),
        # punctuation or a line between the parts
        ("He met Di, Caprio's friend.", CAST),
        # the source never writes the word closed
        ("It has Tom Hardy in it.", CAST),
        # too short to be more than a chance join
        ("an a b", "The ab test ran."),
    ],
)
def test_other_pairs_are_left_as_written(claim: str, source: str) -> None:
    assert close_split_words(claim, turns_of(source)) == claim


def test_a_split_the_source_never_closes_stays_unsupported() -> None:
    report = verify("It has Di Marco in it.", CAST)
    assert grounding_blocks(report, CFG)
    assert "Marco" in report.reasoning
