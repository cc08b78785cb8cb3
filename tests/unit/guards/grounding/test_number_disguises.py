"""Numbers and words disguised so that a changed fact of the source reads as no change
(session 14's write-path red team): an ASCII Roman numeral as a count ("IV replicas"),
"a pair of" / "a couple of", CJK numerals, vulgar fractions, a ligature inside a number
word, a Cyrillic "п" for a Latin "n", and a common word in the slot of a source acronym.
Every attack is paired with a control that must stay approvable (the same fact, or the
same letters used as a word), so a rule too eager fails as well as one that misses."""

from __future__ import annotations

import pytest

from groundwire.guards.canonical import canonical
from groundwire.guards.grounding.lexical.counts import listed_counts
from groundwire.guards.grounding.lexical.evidence import evidence_for
from groundwire.guards.grounding.lexical.numerals import ROMAN_NUMERALS, read_numerals
from groundwire.guards.grounding.lexical.text import claim_words, number_value
from tests.unit.guards.grounding.test_assertion import approvable, turns_of, verify

# (claim, source): each changes the source's count or kind and must not be approvable
ATTACKS = [
    ("The cluster has IV replicas.", "The cluster has three replicas."),
    ("The pool runs VI workers.", "The pool runs eight workers."),
    ("The team bought a pair of GPUs.", "The team bought three GPUs."),
    ("The team has a couple of designers.", "The team has five designers."),
    ("The cluster has 三 replicas.", "The cluster has four replicas."),
    ("The cluster has 十二 replicas.", "The cluster has ten replicas."),
    ("The backup takes ½ hour.", "The backup takes two hours."),
    ("The backup takes 1½ hours.", "The backup takes 11 hours."),
    ("The cluster has ﬁve replicas.", "The cluster has four replicas."),
    ("The cluster has seveп replicas.", "The cluster has three replicas."),
    ("The on-call team gets email alerts.", "The on-call team gets SMS alerts."),
    ("The invoice service sends webhook alerts.", "The invoice service sends SMS alerts."),
    ("The backup takes 1⁄2 hour.", "The backup takes two hours."),
    ("The backup takes half an hour.", "The backup takes 40 minutes."),
    ("The backup takes an hour.", "The backup takes half an hour."),
    ("We run half a dozen replicas.", "We run five replicas."),
    ("We run a trio of replicas.", "We run four replicas."),
    ("We raised half a million dollars.", "We raised 600,000 dollars."),
    ("The export job runs twice a day.", "The export job runs three times a day."),
    ("The export job runs twice a week.", "The export job runs once a week."),
    ("The export job runs once a week.", "The export job runs twice a week."),
    ("The on-call team gets SMS alerts.", "The on-call team gets email alerts."),
]

# (claim, source): the same fact, or the letters as a word; each must stay approvable
CONTROLS = [
    ("The cluster has III replicas.", "The cluster has three replicas."),
    ("The nurse started an IV drip for the patient.", "The nurse started an IV drip."),
    (
        "The patient gets IV antibiotics twice a day.",
        "The patient gets IV antibiotics twice a day.",
    ),
    (
        "The quote is from Chapter IV of the handbook.",
        "The quote is from Chapter IV of the handbook.",
    ),
    ("My grandfather served in World War II.", "My grandfather served in World War II."),
    ("The drug is in Phase III trials.", "The drug is in Phase III trials."),
    ("I sent my CV to three companies.", "I sent my CV to three companies."),
    ("I bought a pair of shoes.", "I bought two shoes."),
    ("The team has a couple of designers.", "The team has two designers."),
    ("We do pair programming on Fridays.", "We do pair programming on Fridays."),
    ("Her test came back with a score of 90.", "Her test came back with a score of 90."),
    ("The cluster has 三 replicas.", "The cluster has three replicas."),
    ("The backup takes 1½ hours.", "The backup takes 90 minutes."),
    ("The backup takes ½ hour.", "The backup takes half an hour."),
    ("The cluster has ﬁve replicas.", "The cluster has five replicas."),
    ("The cluster has seveп replicas.", "The cluster has seven replicas."),
    ("The on-call team gets alerts by SMS.", "The on-call team gets SMS alerts."),
    ("The on-call team gets short message service alerts.", "The on-call team gets SMS alerts."),
    ("The on-call team gets urgent alerts.", "The on-call team gets urgent SMS alerts."),
    ("The backup takes half an hour.", "The backup takes 30 minutes."),
    ("The backup takes 30 minutes.", "The backup takes half an hour."),
    ("The backup takes 1⁄2 hour.", "The backup takes half an hour."),
    ("We run half a dozen replicas.", "We run six replicas."),
    ("We run a half-dozen replicas.", "We run 6 replicas."),
    ("We raised half a million dollars.", "We raised 500,000 dollars."),
    ("The cluster has IV replicas.", "The cluster has four replicas."),
    ("I bought a pair of shoes.", "I bought 2 shoes."),
    ("The export job runs twice a day.", "The export job runs two times a day."),
    ("The on-call team gets SMS alerts.", "The on-call team gets text alerts."),
    ("The on-call team gets SMS alerts.", "The on-call team gets message alerts."),
    ("The on-call team gets text alerts.", "The on-call team gets SMS alerts."),
    ("The on-call team gets message alerts.", "The on-call team gets SMS alerts."),
]


@pytest.mark.parametrize(("claim", "source"), ATTACKS)
def test_a_disguised_changed_fact_is_not_approvable(claim: str, source: str) -> None:
    assert not approvable(verify(claim, source))


@pytest.mark.parametrize(("claim", "source"), CONTROLS)
def test_the_same_fact_or_the_word_itself_stays_approvable(claim: str, source: str) -> None:
    assert approvable(verify(claim, source))


# --- the readings, rule by rule -------------------------------------------------------------


def _numbers(text: str) -> dict[str, str | None]:
    words = claim_words(text)
    return dict(zip(words.raws, words.numbers, strict=True))


@pytest.mark.parametrize(
    ("text", "word", "value"),
    [
        ("The cluster has IV replicas.", "IV", "4"),
        ("We run XII nodes.", "XII", "12"),
        ("We keep XXXIX shards.", "XXXIX", "39"),
        ("The patient gets IV fluids.", "IV", "4"),  # the abbreviation: read, see the docs
        ("The nurse started an IV drip.", "IV", None),  # no plural after it
        ("IV fluids were given.", "IV", None),  # first in its sentence
        ("The drug is in Phase III trials.", "III", None),  # after a capitalised word
        ("The book has IV Chapters.", "IV", None),  # a capitalised word after it
        ("I sent my CV files.", "CV", None),  # not a numeral of I, V and X
        ("We sell XL shirts.", "XL", None),
        ("She owns a pair of shoes.", "pair", "2"),
        ("She owns one pair of shoes.", "pair", "2"),
        ("We have a couple of designers.", "couple", "2"),
        ("We do pair programming.", "pair", None),
        ("The couple of us went.", "couple", None),  # no "a" before it
        ("She got a score of 90.", "score", None),
        ("We run a trio of workers.", "trio", "3"),
        ("It runs once a week.", "once", "1"),
        ("Once we deploy it runs.", "Once", None),
        ("It runs twice a week.", "twice", "2"),
        ("We run half a dozen workers.", "dozen", "6"),
        ("We run half a dozen workers.", "half", None),
        ("We run a half-dozen workers.", "dozen", "6"),
    ],
)
def test_counts_are_read_only_where_a_count_stands(text: str, word: str, value: str | None) -> None:
    assert _numbers(text)[word] == value


def test_roman_numerals_are_two_to_thirty_nine_in_i_v_and_x() -> None:
    assert ROMAN_NUMERALS["II"] == "2" and ROMAN_NUMERALS["XXXIX"] == "39"
    assert ROMAN_NUMERALS["IX"] == "9" and ROMAN_NUMERALS["XIV"] == "14"
    assert "I" not in ROMAN_NUMERALS and "V" not in ROMAN_NUMERALS and "X" not in ROMAN_NUMERALS
    assert "IIII" not in ROMAN_NUMERALS and "XL" not in ROMAN_NUMERALS
    assert len(ROMAN_NUMERALS) == 36  # 2 to 39 less the one-letter "V" and "X"


def test_a_sentence_without_numerals_is_given_back_as_it_is() -> None:
    numbers = (None, "3", None)
    assert read_numerals(("we", "run", "nodes"), ("we", "run", "nodes"), numbers) is numbers


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("½ hour", "0.5 hour"),
        ("1½ hours", "1.5 hours"),
        ("¾ of it", "0.75 of it"),
        ("⅛ inch", "0.125 inch"),
        ("三 replicas", "3 replicas"),
        ("十二 nodes", "12 nodes"),
        ("二十 nodes", "20 nodes"),
        ("三百五十 users", "350 users"),
        ("二〇二六 plan", "2026 plan"),
        ("两万 rows", "20000 rows"),
        ("1⁄2 hour", "0.5 hour"),
        ("3⁄4 done", "0.75 done"),
        ("seveп", "seven"),
        ("ﬁve", "five"),
    ],
)
def test_canonical_reads_fractions_cjk_numerals_and_shape_lookalikes(
    raw: str, expected: str
) -> None:
    assert canonical(raw) == expected


@pytest.mark.parametrize("raw", ["我有三个", "一起 三月", "十十 nodes", "П", "1.5三", "3三 x"])
def test_cjk_words_and_capital_pe_stay_as_written(raw: str) -> None:
    # a numeral inside CJK text is that text's word; a unit twice is no number; the
    # capital "П" is no Latin letter's shape
    assert canonical(raw) == raw


@pytest.mark.parametrize(
    ("text", "word", "value"),
    [("The job takes 1½ hours.", "1½", "1.5"), ("It has ﬁve nodes.", "ﬁve", "5")],
)
def test_a_token_longer_when_plain_keeps_its_offsets_and_reads_its_value(
    text: str, word: str, value: str
) -> None:
    words = claim_words(text)
    at = words.raws.index(word)
    start, end = words.spans[at]
    assert text[start:end] == word  # the offsets point into the text as written
    assert words.numbers[at] == value
    assert number_value(words.lows[at]) == value


def _count_conflicts(claim: str, source: str) -> list[tuple[str, str]]:
    """`counts.listed_counts`'s contradictions of the claim's numbers the source lacks."""
    words = claim_words(claim)
    ev = evidence_for(turns_of(source))
    missing = [r for r, n in zip(words.raws, words.numbers, strict=True) if n is not None]
    missing = [r for r in missing if claim_words(r).numbers[0] not in ev.numbers]
    stems = {st for st, c in zip(words.stems, words.content, strict=True) if c}
    shared = [stems.intersection(s.stems) for s in ev.sentences]
    return listed_counts(words, missing, ev.sentences, shared)[1]


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # the source counts the noun two ways: the claim's count may be their sum
        ("We hired 8 engineers.", "We hired 5 engineers in Berlin and 3 engineers in Paris."),
        # an amount, not a count of things (`changed_values.py` reads amounts)
        ("The renewal could cost 10 million dollars.", "The renewal costs 5 mln dollars."),
        # a bound is no count of all of them
        ("We hired 8 engineers.", "We hired at least 5 engineers."),
    ],
)
def test_a_count_given_two_ways_an_amount_or_a_bound_is_no_changed_count(
    claim: str, source: str
) -> None:
    assert _count_conflicts(claim, source) == []


@pytest.mark.parametrize(
    ("claim", "source", "pair"),
    [
        ("The team bought a pair of new GPUs.", "The team bought three GPUs.", ("pair", "three")),
        ("We run 4 backend services.", "We run three services.", ("4", "three")),
        ("The cluster has IV replicas.", "The cluster has three replicas.", ("IV", "three")),
    ],
)
def test_a_count_of_the_same_noun_with_other_neighbours_is_a_changed_count(
    claim: str, source: str, pair: tuple[str, str]
) -> None:
    assert pair in _count_conflicts(claim, source)


@pytest.mark.parametrize(
    "raw", ["1½三 x", "½⅓¼", "三½", "1⁄2⁄3", "十二½ 万万", "seveп ﬁve 1½", "x三 三x 3⁄0"]
)
def test_the_new_forms_keep_canonical_idempotent(raw: str) -> None:
    once = canonical(raw)
    assert canonical(once) == once
