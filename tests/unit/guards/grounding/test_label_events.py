"""Labels filled by an event that establishes the value ("I turned 34", "I became a
nurse", "I moved to Porto") and "Favourite <class>" labels filled by a preference verb
("I love sushi"): `lexical/label_events.py` and `lexical/labels.py`, docs/grounding.md
*Labels, "own", "I'd"*.

Every case let through has a minimal edit that must stay caught: a wrong value, a change
still to come, another person, a place moved away from, a class the value is not of.
"""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.grounding.lexical.label_events import ahead, bare_after, time_tail
from groundwire.guards.grounding.lexical.labels import gloss_stems
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()


def verify(content: str, text: str) -> GroundingReport:
    turns = [SourceTurn(id="u0", text=text, source="user")]
    claim = Claim(
        claim_id="c1",
        tenant_id="t1",
        user_id="u42",
        content=content,
        source="conversation",
        source_turns=turns,
    )
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        ("Age: 34", "I turned 34 last week."),
        ("Age: 34", "I just turned 34."),
        ("Age: 34", "I turned 34 two weeks ago."),
        ("Job: nurse", "I became a nurse last year."),
        ("Occupation: nurse", "I recently became a nurse."),
        ("Diet: vegan", "I turned vegan last year."),
        ("Residence: Porto", "I moved to Porto two years ago."),  # move: "... residence"
        ("Location: Porto", "I moved to Porto."),  # move: "... location"
        ("Home: Porto", "I relocated to Porto."),  # home: where you live
        ("Favourite food: sushi", "I love sushi."),  # sushi: a dish, a dish: food
        ("Favorite food: sushi", "I really love sushi."),
        ("Favourite colour: blue", "I love blue."),
    ],
)
def test_an_event_or_a_preference_fills_the_label(claim: str, text: str) -> None:
    report = verify(claim, text)
    assert report.verdict is GroundingVerdict.SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        ("Age: 43", "I turned 34 last week."),  # the value is never excused
        ("Job: teacher", "I became a nurse last year."),
        ("Age: 34", "I'm turning 34 next week."),  # still to come
        ("Age: 34", "I turn 34 tomorrow."),
        ("Residence: Porto", "I'm moving to Porto next year."),
        ("Residence: Porto", "I'm moving to Porto."),
        ("Age: 34", "I turned the page at 34."),  # "turn" with an object
        ("Age: 34", "I turned 34 minutes late."),  # "late" is no time word
        ("Age: 34", "I didn't turn 34 yet."),
        ("Job: nurse", "I want to become a nurse."),
        ("Hometown: Porto", "I moved to Porto."),  # a hometown is where you grew up
        ("Favourite food: pizza", "I love sushi."),
        ("Favourite food: sushi", "I hate sushi."),
        ("Favourite food: sushi", "I don't love sushi."),
        ("Favourite band: sushi", "I love sushi."),  # sushi is no band
    ],
)
def test_a_wrong_value_or_a_change_to_come_stays_unsupported(claim: str, text: str) -> None:
    report = verify(claim, text)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("claim", "text"),
    [
        ("Age: 34", "My son turned 34 last week."),
        ("Job: nurse", "My sister became a nurse last year."),
        ("Favourite food: sushi", "My wife loves sushi."),
    ],
)
def test_an_event_of_someone_else_contradicts_the_owner(claim: str, text: str) -> None:
    report = verify(claim, text)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert "(the user)" in report.reasoning


def test_the_grammar_of_the_event() -> None:
    assert bare_after("became", "a") and bare_after("turned", "34")
    assert not bare_after("turned", "the") and not bare_after("got", "34")
    assert time_tail(["last", "week"]) and time_tail(["two", "years", "ago"])
    assert not time_tail(["minutes", "late"]) and not time_tail([])
    assert not time_tail(["week"])  # a unit with no anchor dates nothing
    assert ahead(["next", "year"]) and not ahead(["last", "year"])


def test_a_british_spelling_finds_the_american_entry() -> None:
    assert gloss_stems("favourite") == gloss_stems("favorite") != frozenset()
    assert gloss_stems("flavour") == gloss_stems("flavor") != frozenset()
    assert gloss_stems("centre") == gloss_stems("center") != frozenset()
    assert gloss_stems("theatre") != gloss_stems("theater")  # its own entry first
