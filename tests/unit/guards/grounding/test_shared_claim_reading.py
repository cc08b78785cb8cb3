"""Session 16, round 2 (screen-stage CPU, issue 15 point 2): a reading of the claim that
two rules asked for apart is made once and shared. Each shared reading must give what
the reading it replaces gave, whatever text came before it: these tests compare the new
path with the old one on crafted texts (every date form, and the memo's edge: the same
text twice, another text between, a restated text) and on random ones."""

from __future__ import annotations

import random

import pytest

from groundwire.guards.canonical import canonical
from groundwire.guards.config import HedgeConfig
from groundwire.guards.grounding.lexical import units
from groundwire.guards.grounding.lexical.restated_dates import restate_dates
from groundwire.guards.grounding.lexical.speculation import own_conjecture
from groundwire.guards.grounding.lexical.units import _dates, claim_dates
from groundwire.guards.hedge import detector as detector_mod
from groundwire.guards.hedge.detector import HedgeDetector, forget_read
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


# --- hedge.detector: a claim's hedge hits read once for the screen and the verifier ----

_HEDGE_CASES = [
    "I think the cache runs on Redis.",
    "i believe is called the wolf of wall street",
    "Maybe the deploy finished, probably around 5 ms.",
    "The release is in May 2024 and may be delayed.",
    "It usually takes roughly 10 minutes, give or take a day or two.",
    "p r o b a b l y the queue is full",
    "pr0bably fine; I th ink so",
    "suppos edly it works (prob.)",
    "I dont know whether it is replicated",
    "I... think it is 5",
    "Perhap\u202es 5",
    "The user is not sure whether the backup ran.",
    "It should be 5 and you should buy it.",
    "No hedge in this sentence at all.",
    "",
    "x " * 1_500 + "I think so",  # longer than the memo's bound: read every time
]


def _fresh(detector: HedgeDetector, text: str, **kwargs: object) -> list:
    forget_read()
    return detector.hits(text, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", _HEDGE_CASES)
def test_hits_with_the_memo_as_read_anew(text: str) -> None:
    detector = HedgeDetector()
    expected = _fresh(detector, text)
    assert detector.hits(text) == expected  # the memo answers
    assert detector.hits(canonical(text), is_canonical=True) == expected
    assert detector.analyze(text) == (forget_read(), detector.analyze(text))[1]


def test_hits_memo_is_keyed_by_the_setting_it_reads() -> None:
    """`frequency_adverbs_review` changes the hits of the same text: a detector with it
    off must not be answered with the hits a default detector stored."""
    text = "It usually takes 10 minutes."
    on = HedgeDetector()
    off = HedgeDetector(HedgeConfig(frequency_adverbs_review=False))
    forget_read()
    assert on.hits(text)
    assert off.hits(text) == []
    assert on.hits(text)


def test_hits_memo_hands_out_copies() -> None:
    """A caller extends and sorts its list (`analyze`): the memo's entry must not change."""
    detector = HedgeDetector()
    text = "I think it may be 5."
    first = detector.hits(text)
    expected = list(first)
    first.append(first[0])
    first.reverse()
    assert detector.hits(text) == expected


def test_long_text_is_not_stored() -> None:
    forget_read()
    HedgeDetector().hits("x " * 1_500 + "I think so")
    assert not detector_mod._READ


def test_forget_read_empties_the_memo() -> None:
    HedgeDetector().hits("I think so.")
    assert detector_mod._READ
    forget_read()
    assert not detector_mod._READ


_HEDGE_ALPHABET = [
    "I", "i", "think", "th", "ink", "may", "May", "be", "2024", "5", "maybe", "probably",
    "pr0bably", "p", "r", "o", "b", "should", "usually", "or", "two", "a", "day", "not",
    "sure", "dont", "know", "...", ",", ".", "~", "roughly", "perhaps", "l", "guess", "?",
]  # fmt: skip


def test_hits_random_sequences() -> None:
    """Random texts of hedge words, their pieces and disguises, asked for in a random
    order with repeats (so the memo answers and misses), by two configurations, against
    the same text read with the memo empty."""
    rng = random.Random(1616)
    pool = [
        " ".join(rng.choice(_HEDGE_ALPHABET) for _ in range(rng.randint(0, 12))) for _ in range(300)
    ]
    detectors = [HedgeDetector(), HedgeDetector(HedgeConfig(frequency_adverbs_review=False))]
    expected = {}
    for text in pool:
        for k, d in enumerate(detectors):
            expected[(text, k)] = _fresh(d, text)
    assert sum(bool(v) for v in expected.values()) > 100  # the random texts do hedge
    forget_read()
    for _ in range(3_000):
        text = rng.choice(pool)
        k = rng.randrange(2)
        assert detectors[k].hits(text) == expected[(text, k)], text


def test_own_conjecture_as_before_after_the_screen_read_the_claim() -> None:
    """The verifier's second reader: the same words whether the screen's read of the
    claim is in the memo or not."""
    turns = [SourceTurn(id="t1", text="The cache runs on Redis.", source="user")]
    for claim in ("I think the cache runs on Redis.", "I guess 1966", "The cache runs on Redis."):
        forget_read()
        cold = own_conjecture(claim, turns)
        HedgeDetector().analyze(canonical(claim), is_canonical=True, raw=claim)
        assert own_conjecture(claim, turns) == cold
