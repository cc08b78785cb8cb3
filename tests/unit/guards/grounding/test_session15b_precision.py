"""Session 15b precision red team: faithful restatements the session-15 rules blocked, and
the attacks each narrowing must still catch: a length of time written in parts ("an hour
and a half", "a quarter of an hour", "an hour and fifteen minutes") is read whole
(`durations.py`); a participle's definitions are also its verb's (`slot_swaps._defined`);
months and years convert to each other (`magnitudes.py`); a word with capitals inside is
its acronym ("JavaScript" / "JS", `spelling.py`), read by the source's spelling where a
direction is compared (`roles.reversed_direction`)."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

CFG = GroundingConfig()
NOT = GroundingVerdict.NOT_SUPPORTED


def _verify(content: str, source: str) -> GroundingReport:
    turns = [SourceTurn(id="s", text=source)]
    claim = Claim(claim_id="c1", tenant_id="t1", content=content, source="chat", source_turns=turns)
    return LexicalVerifier(CFG).verify_one(GroundingRequest(claim, turns))


KEPT_DURATIONS = [
    ("The meeting lasted 90 minutes.", "The meeting lasted an hour and a half."),
    ("Deploys take 15 minutes.", "Deploys take a quarter of an hour."),
    ("The call took an hour and a half.", "The call took 90 minutes."),
]


@pytest.mark.parametrize(("claim", "source"), KEPT_DURATIONS)
def test_a_length_written_in_parts_is_read_whole(claim: str, source: str) -> None:
    """The same length in other words is no changed duration (it was: "an hour and a
    half" was read as "an hour")."""
    report = _verify(claim, source)
    assert report.verdict is not NOT, report.reasoning
    assert "contradicts" not in report.reasoning


CAUGHT_DURATIONS = [
    ("The meeting lasted 60 minutes.", "The meeting lasted an hour and a half."),
    ("The meeting lasted 45 minutes.", "The meeting lasted a quarter of an hour."),
    ("The meeting lasted 2 hours.", "The meeting lasted one and a half hours."),
    ("The call took 90 minutes.", "The call took an hour and fifteen minutes."),
    ("The call took an hour and a half.", "The call took 60 minutes."),
    ("The call took 30 minutes.", "The call took three quarters of an hour."),
]


@pytest.mark.parametrize(("claim", "source"), CAUGHT_DURATIONS)
def test_a_changed_length_written_in_parts_is_still_caught(claim: str, source: str) -> None:
    """Read whole, a length of another value still contradicts the source."""
    report = _verify(claim, source)
    assert report.verdict is NOT, report.reasoning


KEPT_SYNONYM_VERBS = [
    ("The crowd scattered after the talk.", "The crowd dispersed after the talk."),
    ("The crowd dispersed after the alarm.", "The crowd scattered after the alarm."),
]


@pytest.mark.parametrize(("claim", "source"), KEPT_SYNONYM_VERBS)
def test_a_participle_is_also_read_as_its_verb(claim: str, source: str) -> None:
    """ "dispersed" is an adjective WordNet defines without "scattered", and a form of the
    verb "disperse", which it defines with it: one thing, no swapped word (it was)."""
    report = _verify(claim, source)
    assert report.verdict is not NOT, report.reasoning


CAUGHT_SWAPPED_WORDS = [
    ("The crowd gathered after the talk.", "The crowd dispersed after the talk."),
    ("Priya leads the sales team.", "Priya leads the payments team."),
    ("We store the logs in the frozen bucket.", "We store the logs in the heated bucket."),
]


@pytest.mark.parametrize(("claim", "source"), CAUGHT_SWAPPED_WORDS)
def test_a_swapped_word_is_still_caught(claim: str, source: str) -> None:
    """Reading a participle as its verb too adds no sense that the two words share."""
    assert _verify(claim, source).verdict is NOT


KEPT_MONTHS_AND_YEARS = [
    ("The warranty is 24 months.", "The warranty is two years."),
    ("The warranty is two years.", "The warranty is 24 months."),
    ("The contract runs for 36 months.", "The contract runs for three years."),
]


@pytest.mark.parametrize(("claim", "source"), KEPT_MONTHS_AND_YEARS)
def test_months_and_years_convert_to_each_other(claim: str, source: str) -> None:
    """Twelve months are a year, always: the same length is no changed number (it was)."""
    report = _verify(claim, source)
    assert report.verdict is not NOT, report.reasoning


CAUGHT_MONTHS_AND_YEARS = [
    ("The warranty is 18 months.", "The warranty is two years."),
    ("The warranty is 2 months.", "The warranty is two years."),
    ("The warranty is two years.", "The warranty is 24 days."),
]


@pytest.mark.parametrize(("claim", "source"), CAUGHT_MONTHS_AND_YEARS)
def test_other_lengths_in_months_or_years_are_still_caught(claim: str, source: str) -> None:
    """Another number of months, or years against days, is still no restatement."""
    assert _verify(claim, source).verdict is NOT


KEPT_ACRONYMS = [
    ("The backend is written in JavaScript.", "The backend is written in JS."),
    ("The backend is written in JS.", "The backend is written in JavaScript."),
    ("Alerts go to PagerDuty.", "Alerts go to PD."),
]


@pytest.mark.parametrize(("claim", "source"), KEPT_ACRONYMS)
def test_a_word_with_inner_capitals_is_its_acronym(claim: str, source: str) -> None:
    """ "JavaScript" and "JS" name one thing: no name missing, no name swapped (it was)."""
    report = _verify(claim, source)
    assert report.verdict is not NOT, report.reasoning


CAUGHT_ACRONYMS = [
    ("The backend is written in TypeScript.", "The backend is written in JS."),
    ("The backend is written in TS.", "The backend is written in JavaScript."),
    ("Alerts go to OpsGenie.", "Alerts go to PD."),
    ("Alerts go to PD.", "Alerts go to OpsGenie."),
    # the acronym read as the source's name, the direction is still read
    ("The team moved from JS to TypeScript.", "The team moved from TypeScript to JavaScript."),
    ("The team moved from NY to Boston.", "The team moved from Boston to New York."),
]


@pytest.mark.parametrize(("claim", "source"), CAUGHT_ACRONYMS)
def test_other_capitals_and_a_reversed_direction_are_still_caught(claim: str, source: str) -> None:
    """Other capitals are another name; a name read as the source's keeps its place."""
    assert _verify(claim, source).verdict is NOT
