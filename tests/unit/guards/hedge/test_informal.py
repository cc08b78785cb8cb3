"""Hedges in chat forms and as notes left on the claim (guards/hedge/lexicon.py): each
with a control that uses the same words without hedging, so the test fails when a
pattern grows too eager as well as when it misses."""

from __future__ import annotations

import pytest

from groundwire.guards.hedge import HedgeDetector
from groundwire.topics.vocab import HedgeAction, HedgeCategory

DETECTOR = HedgeDetector()
P, A, T, X = (
    HedgeCategory.PERSONAL_SPECULATION,
    HedgeCategory.ADMITTED_UNCERTAINTY,
    HedgeCategory.TECHNICAL_HEDGE,
    HedgeCategory.APPROXIMATION,
)


def category(text: str) -> HedgeCategory | None:
    return DETECTOR.analyze(text).category


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Prolly the billing job retries three times.", T),
        ("The billing job kinda retries three times.", X),
        ("The billing job sort of retries three times.", X),
        ("The billing job is kind of slow on Mondays.", X),
        ("Hopefully the billing job retries three times.", T),
        ("I'd say the billing job retries three times.", T),
        ("IMO the billing job retries three times.", T),
        ("In my humble opinion the billing job retries three times.", T),
        ("Looks like the billing job retries three times.", T),
        ("Word is that the billing job retries three times.", T),
        ("Word on the street is the billing job retries three times.", T),
        ("Someone told me the billing job retries three times.", T),
        ("There's a chance the billing job retries three times.", T),
        ("In all probability the billing job retries three times.", T),
        ("idk, the billing job retries three times.", A),
        ("Dunno, the billing job retries three times.", A),
        ("The billing job retries three times, but don't quote me.", A),
        ("Off the top of my head, the billing job retries three times.", A),
        ("The billing job retries three times [citation needed].", A),
        ("The billing job retries three times [unverified].", A),
        ("The billing job retries three times - to be verified.", A),
        ("The billing job retries three times, pending confirmation.", A),
        ("TODO verify: the billing job retries three times.", A),
        ("The billing job retries three times (?)", A),
        ("Wild guess: the billing job retries three times.", P),
        ("Gut feeling: the billing job retries three times.", P),
        ("If I had to guess, the billing job retries three times.", P),
        ("My assumption is the billing job retries three times.", P),
        ("Hypothesis: the billing job retries three times.", P),
        ("Mayhaps the billing job retries three times.", P),
    ],
)
def test_informal_hedges_and_notes_are_found(text: str, expected: HedgeCategory) -> None:
    assert category(text) is expected


@pytest.mark.parametrize(
    "text",
    [
        "Orders are to be verified by the warehouse before shipping.",
        "The payment stays pending confirmation from the bank until it clears.",
        "The word is stored in the dictionary table.",
        "Word is installed on every laptop in the finance team.",
        "The dashboard looks like the old one.",
        "Looks like a toy is the product's tagline.",
        "The opinion column is nullable.",
        "The chance field holds a probability between 0 and 1.",
        "The guess counter is reset each round.",
        "The todo list service stores items in Postgres.",
        "Did the billing job retry? Yes, three times.",
        "The billing job is a kind of cron job with retries.",
        "What sort of retries does the billing job use?",
        "The billing job handles every kind of failure the same way.",
    ],
)
def test_the_same_words_without_a_hedge_are_not_flagged(text: str) -> None:
    assert DETECTOR.analyze(text).action is HedgeAction.NONE, DETECTOR.hits(text)
