"""A decade is a value of its own kind: "the 60s" and "the 1960s" name one decade (the
century unstated in one), "the 1960s" and "the 1970s" (or "the 60s") do not, and "in her
60s" is an age, never a calendar decade (`text.number_value`, `text.read_decades`)."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import grounding_blocks
from groundwire.guards.grounding.lexical import LexicalVerifier, analyze
from groundwire.guards.grounding.lexical.text import (
    claim_words,
    number_in,
    number_value,
    same_number,
)
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()


def _verify(content: str, source: str) -> GroundingReport:
    turns = [SourceTurn(id="s", text=source, speaker="user")]
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


def _missing(content: str, source: str) -> list[str]:
    return analyze(
        content, [SourceTurn(id="s", text=source, speaker="user")], set()
    ).missing_numbers


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("60s", "'60s"),
        ("60's", "'60s"),
        ("sixties", "'60s"),
        ("Nineties", "'90s"),
        ("1960s", "1960s"),
        ("1960's", "1960s"),
        ("2000s", "2000s"),
        # not decades: their number, as before
        ("60", "60"),
        ("1960", "1960"),
        ("5s", "5"),
        ("400s", "400"),
        ("2.5k", "2500"),
    ],
)
def test_a_decade_word_has_a_decade_value_and_other_numbers_keep_theirs(
    word: str, value: str
) -> None:
    assert number_value(word) == value


def test_a_decade_without_its_century_is_any_centurys_and_stated_centuries_must_agree() -> None:
    assert same_number("'60s", "1960s") and same_number("1960s", "'60s")
    assert same_number("'60s", "1860s")  # "the 60s" states no century
    assert not same_number("1960s", "1860s")
    assert not same_number("1960s", "1970s")
    assert not same_number("'60s", "1970s")
    assert not same_number("'60s", "60")  # a decade is not the number 60
    assert not same_number("60", "1960")  # plain numbers compare as before
    assert number_in("'60s", {"1960s", "3"}) and number_in("1960s", {"'60s"})
    assert not number_in("1960s", {"1860s"}) and not number_in("'60s", {"1970s", "60"})


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("She is in her 60s", "60"),
        ("He is in his late 40s", "40"),
        ("I'm in my thirties", "30"),
        ("They grew up in the 60s", "'60s"),
        ("Music of the late 60s", "'60s"),
        ("In the 1960 's bowlers earned more", "1960s"),  # tokenised text splits the 's
    ],
)
def test_a_decade_after_a_possessive_is_an_age(text: str, value: str) -> None:
    numbers = [n for n in claim_words(text).numbers if n is not None]
    assert numbers == [value]


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Grew up in the 60s", "I grew up in the 1960s."),
        ("Grew up in the 60's", "I grew up in the 1960s."),
        ("Grew up in the '60s", "I grew up in the 1960s."),
        ("Grew up in the sixties", "I grew up in the 1960s."),
        ("Grew up in the 1960s", "I grew up in the 60s."),
        ("Loves music from the '90s", "I love music from the 1990s."),
        ("Bowlers earned more in the 1960s", "In the 1960 's bowlers earned more."),
        ("She is in her 60s", "She is in her 60s."),
    ],
)
def test_one_decade_written_two_ways_is_let_through(claim: str, source: str) -> None:
    assert _missing(claim, source) == []
    report = _verify(claim, source)
    assert "contradicts" not in report.reasoning
    assert not grounding_blocks(report, CFG), report.reasoning


@pytest.mark.parametrize(
    ("claim", "source", "missing"),
    [
        ("Grew up in the 1970s", "I grew up in the 1960s.", "1970s"),
        ("Grew up in the 60s", "I grew up in the 1970s.", "60s"),
        ("Grew up in the 1860s", "I grew up in the 1960s.", "1860s"),
        ("Grew up in the 70s", "I grew up in the 60s.", "70s"),
        ("He is in his 40s", "I'm 25.", "40s"),
    ],
)
def test_another_decade_or_age_is_caught(claim: str, source: str, missing: str) -> None:
    assert _missing(claim, source) == [missing]
    assert grounding_blocks(_verify(claim, source), CFG)


def test_an_age_is_not_the_decade_of_the_calendar() -> None:
    # her age in the claim, a decade of the calendar in the source (and the other way
    # round): the number stays unsupported, as a plain 60 against 1960 always was
    assert _missing("Her mother is in her 60s", "My mother grew up in the 1960s.") == ["60s"]
    assert _missing("Her mother grew up in the 1960s", "My mother is in her 60s.") == ["1960s"]
    assert _missing("Grew up in the 60s", "She is in her 60s.") == ["60s"]


def test_plain_numbers_compare_as_before() -> None:
    assert _missing("The team has 3 engineers", "The team has 3 engineers.") == []
    assert _missing("The team has 5 engineers", "The team has 3 engineers.") == ["5"]
    assert _missing("Joined in 1960", "I joined in 1960.") == []


def test_a_year_is_not_its_decade() -> None:
    # the claim's year says more than the source's decade, and the other way round: a
    # number the source lacks (before, "1960s" was read as the number 1960)
    assert _missing("Grew up in 1960", "I grew up in the 1960s.") == ["1960"]
    assert _missing("Grew up in the 1960s", "I grew up in 1960.") == ["1960s"]


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Was born in the 1970s.", "I was born in 1962."),
        ("Was born in the 70s.", "I was born in 1962."),
        ("Joined Acme in the 2010s.", "I joined Acme in 2021."),
    ],
)
def test_a_decade_that_does_not_hold_the_sources_year_contradicts_it(
    claim: str, source: str
) -> None:
    # "in the 1970s" stands where the source says "in 1962": the article is no neighbour
    # of its own, and a year outside the decade is another value, not an added detail
    report = _verify(claim, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED, report.reasoning
    assert "where the source says '" in report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("Was born in the 1960s.", "I was born in 1962."),
        ("Was born in the 60s.", "I was born in 1962."),
        ("Was born in 1962.", "I was born in the 1960s."),
        ("Joined Acme in the 2020s.", "I joined Acme in 2021."),
    ],
)
def test_a_year_inside_the_decade_is_no_contradiction(claim: str, source: str) -> None:
    report = _verify(claim, source)
    assert report.verdict is not GroundingVerdict.NOT_SUPPORTED, report.reasoning
