"""A number at another scale or in another unit, and a date in another form, is the
source's own (`lexical/magnitudes.py`, `lexical/dates.py`); a changed one still
contradicts the source. Each restatement let through has a changed value beside it."""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.dates import written_dates
from groundwire.guards.grounding.lexical.magnitudes import magnitudes
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.test_assertion import NOT_SUPPORTED, verify

SUPPORTED = GroundingVerdict.SUPPORTED
MONEY = "The seed round raised $5 million in March 2024."
LATENCY = "The p99 latency of the search API is 200 ms."
ISO = "The database migration finished on 2024-03-05."


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The seed round raised $5,000,000 in March 2024.", MONEY),
        ("The seed round raised $5M in March 2024.", MONEY),
        (
            "The seed round raised $5 million in March 2024.",
            MONEY.replace("$5 million", "$5,000,000"),
        ),
        ("The p99 latency of the search API is 0.2 s.", LATENCY),
        ("The p99 latency of the search API is 0.2 seconds.", LATENCY.replace("200 ms", "200ms")),
        ("The backup holds 2 TB.", "The backup holds 2000 GB."),
        ("The job runs every 90 minutes.", "The job runs every 1.5 hours."),
    ],
)
def test_a_number_restated_at_another_scale_or_unit_is_supported(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The seed round raised $50M in March 2024.", MONEY),
        ("The seed round raised $50,000,000 in March 2024.", MONEY),
        ("The seed round raised $5 billion in March 2024.", MONEY),
        ("The seed round raised €5,000,000 in March 2024.", MONEY),  # another currency
        ("The p99 latency of the search API is 2 s.", LATENCY),
        ("The p99 latency of the search API is 200 s.", LATENCY),
        ("The backup holds 3 TB.", "The backup holds 2000 GB."),
    ],
)
def test_a_changed_magnitude_still_contradicts(claim: str, source: str) -> None:
    report = verify(claim, source)
    assert report.verdict is NOT_SUPPORTED, report.reasoning


@pytest.mark.parametrize(
    "claim",
    [
        "The database migration finished on March 6, 2024.",
        "The database migration finished on May 5, 2024.",
        "The database migration finished on March 5, 2023.",
        "The database migration finished on 6 March 2024.",
        "The database migration finished in March 2023.",  # a month of another year
        "The database migration finished in May 2024.",
    ],
)
def test_a_changed_date_in_another_form_contradicts(claim: str) -> None:
    report = verify(claim, ISO)
    assert report.verdict is NOT_SUPPORTED, report.reasoning
    assert "contradicts the source" in report.reasoning


@pytest.mark.parametrize(
    "claim",
    [
        "The database migration finished on March 5, 2024.",
        "The database migration finished on 5 March 2024.",
        "The database migration finished on the 5th of March, 2024.",
        "The database migration finished in March 2024.",  # the month holds the date
    ],
)
def test_the_same_date_in_another_form_is_no_contradiction(claim: str) -> None:
    report = verify(claim, ISO)
    assert report.verdict is not NOT_SUPPORTED, report.reasoning


def test_the_readings() -> None:
    assert written_dates("on Mar. 5th, 2024 and 7 June 2023") == [
        ("Mar. 5th, 2024", {(2024, 3, 5)}),
        ("7 June 2023", {(2023, 6, 7)}),
    ]
    ((_, days),) = written_dates("in March 2024, 45 people")  # a month: each of its days
    assert len(days) == 31 and (2024, 3, 5) in days
    assert written_dates("on March 5") == []  # no year: no date
    text = "raised $5M, then 0.2 s and 5m"
    w = claim_words(text)
    read = {w.raws[i]: (dim, size) for i, dim, size, _ in magnitudes(w.raws, w.lows, w.spans, text)}
    assert read["5M"] == ("money:dollar", 5e6)
    assert read["0.2"] == ("time", 0.2)
    assert read["5m"] == ("", 5.0)  # no currency sign: metres or minutes, not millions
