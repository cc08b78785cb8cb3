"""Session 16, round 2 (screen-stage CPU, issue 15 point 2): a reading of the claim that
two rules asked for apart is made once and shared. Each shared reading must give what
the reading it replaces gave, whatever text came before it: these tests compare the new
path with the old one on crafted texts (every date form, and the memo's edge: the same
text twice, another text between, a restated text) and on random ones."""

from __future__ import annotations

import random

import pytest

from groundwire.guards.grounding.lexical import units
from groundwire.guards.grounding.lexical.restated_dates import restate_dates
from groundwire.guards.grounding.lexical.units import _dates, claim_dates
from groundwire.topics.records import SourceTurn

# --- units.claim_dates: the claim's dates read once for restate_dates and date_swaps ---


def _as_read(dates: list[tuple[str, set[tuple[int, int, int]]]]) -> list[tuple[str, frozenset]]:
    return [(written, frozenset(readings)) for written, readings in dates]


_DATE_CASES = [
    "The release is on March 6, 2024.",
    "The release is on 2024-03-06 and the freeze on 2024-02-28.",
    "It shipped 03/05/2024, then 5/3/24, then 12/31/1999.",
    "6 March 2024 and March 2024 and May 3rd, 2026",
    "born in 1935 and died on august 16, 1977",
    "no dates here at all",
    "version 2.5 in 2024-13-45 (not a date?)",
    "",
    "1/2/3",
    "March 6, 2024 March 6, 2024",
]


@pytest.mark.parametrize("text", _DATE_CASES)
def test_claim_dates_reads_what_dates_reads(text: str) -> None:
    assert list(claim_dates(text)) == _as_read(_dates(text))
    # asked again (the memo answers): the same
    assert list(claim_dates(text)) == _as_read(_dates(text))


def test_claim_dates_never_answers_for_another_text() -> None:
    """The memo is keyed by the exact text: a text that differs by one character (a date
    restated, a digit changed) is read anew, and an earlier text read again after it."""
    first = "The release is on March 6, 2024."
    second = "The release is on March 7, 2024."
    assert claim_dates(first) == (("March 6, 2024", frozenset({(2024, 3, 6)})),)
    assert claim_dates(second) == (("March 7, 2024", frozenset({(2024, 3, 7)})),)
    assert claim_dates(first) == (("March 6, 2024", frozenset({(2024, 3, 6)})),)
    assert claim_dates("no dates") == ()
    assert claim_dates(first) == (("March 6, 2024", frozenset({(2024, 3, 6)})),)


def test_claim_dates_answer_is_immutable() -> None:
    """Both callers share the answer: nothing in it can be changed by one of them."""
    dates = claim_dates("It shipped 03/05/2024.")
    assert isinstance(dates, tuple)
    assert all(isinstance(readings, frozenset) for _, readings in dates)


_ALPHABET = "0123456789/-,. ad" + "March May June august "


def test_claim_dates_random_sequences() -> None:
    """Random texts drawn from digits, date marks and month names, asked for in a random
    order with repeats (so the memo both answers and misses), against `_dates` itself."""
    rng = random.Random(1602)
    pool = ["".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 40))) for _ in range(400)]
    pool += [
        f"{rng.choice(['On', 'by'])} {rng.randint(1, 31)} March {rng.randint(1900, 2100)}"
        for _ in range(100)
    ]
    pool += [
        f"{rng.randint(1, 12)}/{rng.randint(1, 31)}/{rng.randint(0, 2099)}" for _ in range(100)
    ]
    dated = 0
    for _ in range(3000):
        text = rng.choice(pool)
        expected = _as_read(_dates(text))
        dated += bool(expected)
        assert list(claim_dates(text)) == expected, text
    assert dated > 300  # the random texts do hold dates


def test_restate_dates_as_before_with_the_memo_warm_for_another_text() -> None:
    """The verifier's first reader of the claim's dates: the same restated text whether
    the memo holds this claim, another one, or nothing."""
    turns = [SourceTurn(id="t1", text="The release is on 2024-03-06.", source="user")]
    claim = "The release is on March 6, 2024."
    units._last_claim_dates = None
    cold = restate_dates(claim, turns)
    assert cold == "The release is on 2024-03-06."
    assert restate_dates(claim, turns) == cold  # the memo answers
    claim_dates("Another claim on March 7, 2024.")
    assert restate_dates(claim, turns) == cold
    assert restate_dates("The release is on March 7, 2024.", turns) == (
        "The release is on March 7, 2024."
    )
