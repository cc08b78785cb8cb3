"""Session 18: faithful claims that older rules of the default write path blocked, each
cause fixed in a module of its own, with the attacks a too-wide reading would let through:

* `restated_frequencies.py`: "every year" where the source says "annually" is the
  source's period, not two words it lacks (a different period stays a changed one).
"""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.restated_frequencies import restated_frequency_words
from groundwire.guards.grounding.lexical.text import claim_words
from groundwire.topics.vocab import GroundingVerdict
from tests.unit.guards.grounding.one_turn import one_turn, verify_one_turn

NOT = GroundingVerdict.NOT_SUPPORTED

# (claim, source): faithful restatements kept (each blocked before)
KEPT = [
    ("Certificates are rotated every year.", "Certificates are rotated annually."),
    ("The team meets every other week.", "The team meets biweekly."),
    ("The job runs once a week.", "The job runs weekly."),
    ("The sync runs every two weeks.", "The sync runs biweekly."),
    ("Backups run every day.", "Backups run daily."),
]

# (claim, source): attacks still caught
CAUGHT = [
    ("Certificates are rotated every month.", "Certificates are rotated annually."),
    ("The job runs once a day.", "The job runs weekly."),
    ("The sync runs every three weeks.", "The sync runs biweekly."),
    ("The team meets every week.", "The team meets every other week."),
    ("Backups run every year.", "Certificates are rotated annually."),
    ("Backups run every year.", "Certificates are rotated annually. Backups run every night."),
]


@pytest.mark.parametrize(("claim", "source"), KEPT)
def test_kept(claim: str, source: str) -> None:
    report = verify_one_turn(claim, source, "user")
    assert report.verdict is not NOT, report.reasoning


@pytest.mark.parametrize(("claim", "source"), CAUGHT)
def test_caught(claim: str, source: str) -> None:
    report = verify_one_turn(claim, source, "user")
    assert report.verdict is NOT, report.reasoning


def test_frequency_words_found_only_with_a_shared_statement() -> None:
    cw = claim_words("Certificates are rotated every year.")
    here = evidence_for(one_turn("Certificates are rotated annually.", "user")).sentences
    found = restated_frequency_words(cw.lows, cw.stems, cw.content, here)
    assert {cw.lows[i] for i in found} == {"every", "year"}
    elsewhere = evidence_for(one_turn("Invoices are sent annually.", "user")).sentences
    assert not restated_frequency_words(cw.lows, cw.stems, cw.content, elsewhere)
