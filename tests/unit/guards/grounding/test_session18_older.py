"""Session 18: faithful claims that older rules of the default write path blocked, each
cause fixed in a module of its own, with the attacks a too-wide reading would let through:

* `restated_frequencies.py`: "every year" where the source says "annually" is the
  source's period, not two words it lacks (a different period stays a changed one);
* `negated_conditions.py`: "if the tests don't fail" is the source's "unless the tests
  fail" (a condition in other words, or a negation outside it, stays a flip);
* `pronoun_restatements.py`: "Vendors may not access the logs; they are prohibited from
  accessing the logs" restates "Vendors are prohibited from accessing the logs" in its
  second clause (a pronoun clause lacking an object, or no pronoun, restates nothing);
* `phrasal_synonyms.py`: "cancelled" where the source says "called off" (WordNet's
  phrasal lemma in the first, majority sense; "put off", "back up" are not read so);
* `plural_openers.py`: "Students get a 30-day trial" opens with a plural noun the source
  writes after a preposition ("for students"), not with the user's own verb (a verb the
  source writes after its subject stays someone else's);
* `quantity_negations.py`: "Almost no tickets" / "Hardly any tickets", "No customer was
  affected" / "Not a single customer was affected" deny alike ("Not every customer",
  "Most tickets" stay flips); `cessation.py` no longer reads the source's "barely any"
  as a plain statement.
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
    ("We deploy if the tests don't fail.", "We deploy unless the tests fail."),
    ("We deploy unless the tests fail.", "We deploy if the tests do not fail."),
    ("Releases ship when the checks do not fail.", "Releases ship unless the checks fail."),
    (
        "Vendors are prohibited from accessing the logs.",
        "Vendors may not access the logs; they are prohibited from accessing the logs.",
    ),
    ("The meeting was cancelled.", "The meeting was called off."),
    ("The meeting was called off.", "The meeting was cancelled."),
    ("The team solved the puzzle.", "The team figured out the puzzle."),
    ("The team called the meeting off.", "The team cancelled the meeting."),
]

# (claim, source): attacks still caught
CAUGHT = [
    ("Certificates are rotated every month.", "Certificates are rotated annually."),
    ("The job runs once a day.", "The job runs weekly."),
    ("The sync runs every three weeks.", "The sync runs biweekly."),
    ("The team meets every week.", "The team meets every other week."),
    ("Backups run every year.", "Certificates are rotated annually."),
    ("Backups run every year.", "Certificates are rotated annually. Backups run every night."),
    ("We deploy unless the tests pass.", "We deploy if the tests do not fail."),
    ("We deploy if the tests fail.", "We deploy if the tests do not fail."),
    ("We roll back if the tests don't fail.", "We roll back unless the tests pass."),
    ("We deploy if the build does not fail.", "We deploy unless the tests fail."),
    (
        "Vendors are allowed to read the logs.",
        "Vendors are not allowed to read the logs; they are allowed to read.",
    ),
    (
        "Vendors may access the logs.",
        "Vendors may not access the logs; logs may be accessed by admins.",
    ),
    (
        "Vendors may access the logs.",
        "Vendors may not access the logs; they may access the dashboards.",
    ),
    ("Vendors read the logs.", "Vendors do not read the logs; the logs are read."),
    ("Vendors read the audit logs.", "Vendors do not read the audit logs; they read the logs."),
    (
        "Contractors signed the contract.",
        "Contractors did not sign the contract; the contract was signed.",
    ),
    ("The meeting was cancelled.", "The meeting was put off."),
    ("The meeting was postponed.", "The meeting was called off."),
    ("The database was supported.", "The database was backed up."),
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


def test_condition_agrees_reads_the_negation_inside_the_condition_only() -> None:
    from groundwire.guards.grounding.lexical.negated_conditions import condition_agrees

    neg = evidence_for(one_turn("We deploy if the tests do not fail.", "user")).sentences[0]
    other = evidence_for(one_turn("We deploy unless the tests fail.", "user")).sentences[0]
    at = neg.lows.index("not")
    whole = tuple(range(len(neg.lows)))
    unless = tuple(range(other.lows.index("unless"), len(other.lows)))
    args = (other.lows, other.word_stems, other.content, unless)
    assert condition_agrees(neg.lows, neg.word_stems, neg.content, whole, at, *args)
    outside = evidence_for(one_turn("We do not deploy if the tests fail.", "user")).sentences[0]
    at = outside.lows.index("not")
    whole = tuple(range(len(outside.lows)))
    assert not condition_agrees(outside.lows, outside.word_stems, outside.content, whole, at, *args)


def test_phrasal_table_reads_majority_first_senses_only() -> None:
    from groundwire.guards.grounding.lexical.phrasal_synonyms import _table

    phrasal, single = _table()
    assert phrasal[("call", "off")] == {"cancel"}
    assert ("back", "up") not in phrasal  # "support" first, a copy as often
    assert ("put", "off") not in phrasal  # "postpone" in half its uses only
    assert ("talk", "about") not in phrasal  # a prepositional verb: "what are you talking about"
    assert ("call", "off") in single["cancel"]


# (claim, source of the user's): a plural noun first, kept; someone else's verb, caught
OWNER_KEPT = [
    ("Students get a 30-day trial.", "The trial lasts 14 days, or 30 days for students."),
]
OWNER_CAUGHT = [
    ("Manages the billing team.", "Dana manages the billing team."),
    ("Likes hiking.", "Her brother likes hiking."),
    ("Teaches math at the high school.", "She teaches math at the high school."),
]


@pytest.mark.parametrize(("claim", "source"), OWNER_KEPT)
def test_plural_opener_kept(claim: str, source: str) -> None:
    report = verify_one_turn(claim, source, "user")
    assert report.verdict is not NOT, report.reasoning


@pytest.mark.parametrize(("claim", "source"), OWNER_CAUGHT)
def test_owner_verb_still_unheard(claim: str, source: str) -> None:
    report = verify_one_turn(claim, source, "user")
    assert report.verdict is NOT, report.reasoning


def test_source_noun_opener() -> None:
    from groundwire.guards.grounding.lexical.plural_openers import source_noun_opener

    assert source_noun_opener("students", one_turn("30 days for students.", "user"))
    # after a comma a verb follows its subject as often ("Tom, my brother, works at Acme")
    assert not source_noun_opener("works", one_turn("Tom, my brother, works at Acme.", "user"))
    assert not source_noun_opener("manages", one_turn("Dana manages it.", "user"))


QUANTITY_KEPT = [
    (
        "No customer was affected by the outage.",
        "Not a single customer was affected by the outage; no customer was affected.",
    ),
    ("Almost no tickets were reopened.", "Hardly any tickets were reopened."),
    ("Hardly any endpoint is documented.", "Barely any endpoint is documented."),
]
QUANTITY_CAUGHT = [
    ("No customer was affected by the outage.", "Not every customer was affected by the outage."),
    ("No customer was affected by the outage.", "Not all customers were affected by the outage."),
    ("Almost no tickets were reopened.", "Most tickets were reopened."),
    ("Hardly any tickets were reopened.", "Only some tickets were not reopened."),
    (
        "Alice hardly approves the deploys.",
        "Alice barely passed the review and approves the deploys.",
    ),
]


@pytest.mark.parametrize(("claim", "source"), QUANTITY_KEPT)
def test_quantity_denial_kept(claim: str, source: str) -> None:
    report = verify_one_turn(claim, source, "user")
    assert report.verdict is not NOT, report.reasoning


@pytest.mark.parametrize(("claim", "source"), QUANTITY_CAUGHT)
def test_quantity_denial_caught(claim: str, source: str) -> None:
    report = verify_one_turn(claim, source, "user")
    assert report.verdict is NOT, report.reasoning
