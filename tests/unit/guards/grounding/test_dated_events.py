"""A year the source gives one event, given by the claim to another
(`lexical/dated_events.py`): the claim keeps the source's year and dates something the
source does not date with it: NOT_SUPPORTED. A claim that dates the source's own event
(in its words or beside them), a year the source lacks, a year that is no date and a
clause that says nothing of the event are left as they were."""

from __future__ import annotations

import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.lexical import dated_events
from groundwire.guards.grounding.lexical import verifier as verifier_module
from groundwire.guards.grounding.lexical.dated_events import redated_years
from groundwire.topics.records import GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

CFG = GroundingConfig()
MUSEUM = (
    "The city museum moved to the old harbour warehouse in 1994, and soon afterwards its "
    "first exhibition of sea charts opened to the public."
)
VILLAGE = "Brindle was a quiet fishing port in 1820 and became a market town in 1901."
CAREER = (
    "Her recording career began there in 1954, working at a small studio with a local "
    "producer who wanted a wider audience."
)


def _turns(text: str) -> list[SourceTurn]:
    return one_turn(text, "document")


def _verify(claim: str, source: str) -> GroundingReport:
    return verify_one_turn(claim, source, "document", CFG)


@pytest.mark.parametrize(
    ("claim", "source", "year"),
    [
        # the source dates the move; the exhibition opened later
        ("Its first exhibition of sea charts opened to the public in 1994.", MUSEUM, "1994"),
        # the source's 1820 dates a fishing port, not a founding
        ("It was founded around 1820 and became a market town in 1901.", VILLAGE, "1820"),
    ],
)
def test_a_year_given_to_another_event_is_not_supported(
    claim: str, source: str, year: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert redated_years(claim, _turns(source)) == [year]
    report = _verify(claim, source)
    assert report.verdict is GroundingVerdict.NOT_SUPPORTED
    assert f"a year the source gives another event: {year!r}" in report.reasoning
    # without the rule the claim passed: its words are all in the source, or all but one
    monkeypatch.setattr(verifier_module, "redated_years", lambda *_: [])
    assert _verify(claim, source).verdict is not GroundingVerdict.NOT_SUPPORTED


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the source's own event in its words
        ("The city museum moved to the old harbour warehouse in 1994.", MUSEUM),
        ("Brindle became a market town in 1901.", VILLAGE),
        # the event told in the clause beside the source's year, which no conjunction opens
        ("In 1954 she started working at a small studio.", CAREER),
        # a year the source does not hold: the specifics report it, not this rule
        ("The city museum moved to the old harbour warehouse in 1996.", MUSEUM),
        # a year that is no date ("a 1994 ..."): not read
        ("The 1994 exhibition of sea charts opened to the public.", MUSEUM),
        # a clause of the date alone says nothing of the event
        ("Yes, in 1994.", MUSEUM),
        # the source's year in parentheses (a lifespan) names no event to compare
        ("She was born in 1935.", "Ada Lorne (March 3, 1935 - May 1, 2001) was a painter."),
        # the source's year only classifies a thing ("a 2011 film"): no dated event
        ("It came out in 2011.", "Harbour Lights is a 2011 drama film about a lighthouse."),
    ],
)
def test_a_year_of_the_sources_event_is_left_as_it_was(
    claim: str, source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert redated_years(claim, _turns(source)) == []
    report = _verify(claim, source)
    assert "a year the source gives another event" not in report.reasoning
    monkeypatch.setattr(verifier_module, "redated_years", lambda *_: [])
    off = _verify(claim, source)
    assert (off.verdict, off.reasoning) == (report.verdict, report.reasoning)


def test_an_irregular_verb_form_is_read_by_its_lemma() -> None:
    """ "begun" and "began" are one verb: the claim dates the source's event."""
    source = _turns("The survey began in 1985, and a museum of its finds opened in 1990.")
    assert redated_years("Work on it was begun in 1985.", source) == []
    # another verb in that clause is another event
    assert redated_years("Work on it was halted in 1985.", source) == ["1985"]


def test_a_noun_is_read_by_its_first_sense() -> None:
    """ "movie" and "film" are one thing (WordNet's first sense of each): the claim dates
    the source's event."""
    source = _turns("The film was released by a small studio on October 1, 2010.")
    assert redated_years("It is a movie from 2010.", source) == []
    assert redated_years("It is a novel from 2010.", source) == ["2010"]


def test_the_comparisons_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past `MAX_COMPARISONS` (claim year x source clause) the rest count as the
    source's events: a claim and source of many dated clauses cost at most that."""
    source = _turns("The dam was built in 1990. The bridge was painted in 1990.")
    claim = "The school opened in 1990. The park closed in 1990."
    assert redated_years(claim, source) == ["1990", "1990"]
    monkeypatch.setattr(dated_events, "MAX_COMPARISONS", 3)
    assert redated_years(claim, source) == ["1990"]
