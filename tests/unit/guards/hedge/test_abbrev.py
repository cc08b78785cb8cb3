"""Abbreviated hedge adverbs (guards/hedge/abbrev.py), derived from the lexicon."""

from __future__ import annotations

import pytest

from groundwire.guards.hedge.abbrev import abbreviations, expand
from groundwire.guards.hedge.detector import HedgeDetector
from groundwire.topics.vocab import HedgeCategory

DETECTOR = HedgeDetector()


def test_the_abbreviations_come_from_the_lexicon() -> None:
    table = abbreviations()
    assert table["prob"] == ("probably", False)
    assert table["poss"] == ("possibly", False)
    assert table["approx"] == ("approximately", True)
    # English words and cuts shared by two adverbs are no abbreviations
    for word in ("norm", "seem", "report", "potent", "suppose", "app"):
        assert word not in table


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("We use Redis for the session cache (prob.).", HedgeCategory.TECHNICAL_HEDGE),
        ("We poss. use Redis.", HedgeCategory.TECHNICAL_HEDGE),
        ("The job presum. runs nightly.", HedgeCategory.TECHNICAL_HEDGE),
        ("The cache holds approx. 10 GB.", HedgeCategory.APPROXIMATION),
        ("The cache holds approx 10 GB.", HedgeCategory.APPROXIMATION),
    ],
)
def test_abbreviated_hedges_are_hedges(text: str, category: HedgeCategory) -> None:
    assert [h.category for h in DETECTOR.hits(text)] == [category]


@pytest.mark.parametrize(
    "text",
    [
        "Prob. of failure: 0.3.",  # a column header: probability
        "The prob. of failure is 0.3.",
        "Prob.: 0.3",
        "We fixed prob 3 today.",  # no full stop, no approximation: problem 3
        "Pres. Smith signed it.",
        "Use the norm. value.",
    ],
)
def test_other_abbreviations_stay(text: str) -> None:
    assert DETECTOR.hits(text) == []
    assert expand(text) == text


def test_a_cut_that_mostly_stands_for_other_words_is_no_hedge() -> None:
    """A cut more often another word's than the adverb's (WordNet's tag counts) is
    ambiguous: "conc." (concern, concentration, concept before conceivably), "supp."
    (support before supposedly), "pres." (present before presumably)."""
    table = abbreviations()
    for cut in ("conc", "supp", "pres", "appr"):
        assert cut not in table
    # the adverb's family outweighs the other words: these stay
    assert table["prob"] == ("probably", False)
    assert table["approx"] == ("approximately", True)
    assert table["presum"] == ("presumably", False)


@pytest.mark.parametrize(
    "text",
    [
        "The sample conc. was 5 mM.",  # concentration
        "The final conc. is listed in table 2.",
        "Details are in supp. table 2.",  # supplementary
        "The supp. data holds the raw counts.",
    ],
)
def test_ambiguous_cuts_are_no_hedges(text: str) -> None:
    assert DETECTOR.hits(text) == []
    assert expand(text) == text


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("The job prob. runs nightly.", HedgeCategory.TECHNICAL_HEDGE),
        ("The job runs approx. 10 times a day.", HedgeCategory.APPROXIMATION),
    ],
)
def test_unambiguous_cuts_stay_hedges(text: str, category: HedgeCategory) -> None:
    assert [h.category for h in DETECTOR.hits(text)] == [category]
