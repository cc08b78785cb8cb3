"""Hedge words spelled letter by letter or with digits for letters (guards/hedge/spelling.py).

Every lexicon phrase in these disguises is swept by test_canonical_variants.py (kinds
"spelled" and "digits"); here: what must never change (numbers, units, versions, names
with digits, initials next to the month filter), the cheap test that keeps ordinary
claims off the slow path, and the bounds.
"""

from __future__ import annotations

import pytest

from groundwire.guards.hedge import HedgeDetector
from groundwire.guards.hedge.lexicon import byte_words
from groundwire.guards.hedge.spelling import needs_respelling, respell
from groundwire.topics.vocab import HedgeAction, HedgeCategory

DETECTOR = HedgeDetector()


def outcome(text: str) -> tuple[HedgeAction, HedgeCategory | None]:
    report = DETECTOR.analyze(text)
    return report.action, report.category


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The user p r o b a b l y prefers dark mode.", HedgeCategory.TECHNICAL_HEDGE),
        ("The user p.r.o.b.a.b.l.y prefers dark mode.", HedgeCategory.TECHNICAL_HEDGE),
        ("I t h i n k the user prefers dark mode.", HedgeCategory.PERSONAL_SPECULATION),
        ("P-e-r-h-a-p-s the user prefers dark mode.", HedgeCategory.PERSONAL_SPECULATION),
        ("The user pr0bably prefers dark mode.", HedgeCategory.TECHNICAL_HEDGE),
        ("The user poss1bly prefers dark mode.", HedgeCategory.TECHNICAL_HEDGE),
        ("The user probab1y prefers dark mode.", HedgeCategory.TECHNICAL_HEDGE),
        ("I d0n't kn0w if the user prefers dark mode.", HedgeCategory.ADMITTED_UNCERTAINTY),
        ("The job takes a b o u t 5 minutes.", HedgeCategory.APPROXIMATION),
        ("The service m-a-y fail under load.", HedgeCategory.TECHNICAL_HEDGE),
    ],
)
def test_a_spelled_hedge_is_the_hedge(text: str, expected: HedgeCategory) -> None:
    assert outcome(text)[1] is expected


@pytest.mark.parametrize(
    "text",
    [
        "It shipped in M-a-y 2024.",  # spelled out, still the month before a year
        "The cutover was on may 3rd, 2026.",
        "J.R.R. Tolkien wrote it; the U.S.A. edition came later.",
        "The BMW M3 and the RAV4 do 70mph on the 3rd lane.",
        "Version v1.2.3 runs on 10.0.0.1 with a 4k display and MP3 audio.",
        "The b2b plan covers the 1990s archive and 3d models.",
        "Options a b c d are listed in section 4.",
        "Grade: A B C D F.",
    ],
)
def test_numbers_names_and_initials_are_no_hedge(text: str) -> None:
    assert outcome(text) == (HedgeAction.NONE, None)


@pytest.mark.parametrize("token", ["3rd", "MP3", "RAV4", "70mph", "10.0.0.1", "v1.2.3", "M3"])
def test_numbers_and_names_with_digits_stay_as_written(token: str) -> None:
    text = f"It uses {token} today."
    assert respell(text) == text


def test_initials_are_joined_into_one_word() -> None:
    # a run inside one word is that word, whatever it is: harmless for the patterns
    assert respell("the U.S.A. team") == "the USA. team"


def test_ordinary_claims_stay_off_the_slow_path() -> None:
    for text in (
        "The cache is rebuilt every night by the scheduler.",
        "I think the queue drains before the nightly batch starts.",
        "Connections typically finish within 100 ms.",
    ):
        lower = text.lower()
        assert not needs_respelling(lower, byte_words(lower)), text


def test_the_cheap_test_sees_both_disguises() -> None:
    for text in ("p r o b a b l y", "it is pr0bably fine", "i don'7 know"):
        lower = text.lower()
        assert needs_respelling(lower, byte_words(lower)), text


def test_a_long_run_of_single_letters_is_bounded() -> None:
    # longer than any spelled word: left as written, and read in linear time
    text = "x " * 5_000 + "is the fleet size."
    assert respell(text) == text
    assert outcome(text) == (HedgeAction.NONE, None)


# --- stretched, cut and misspelled hedge words --------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The user maaaybe prefers dark mode.", HedgeCategory.PERSONAL_SPECULATION),
        ("The user perrrhaps prefers dark mode.", HedgeCategory.PERSONAL_SPECULATION),
        ("The user probablyyyy prefers dark mode.", HedgeCategory.TECHNICAL_HEDGE),
        ("The user posssssibly prefers dark mode.", HedgeCategory.TECHNICAL_HEDGE),
        ("The user prob-ably prefers dark mode.", HedgeCategory.TECHNICAL_HEDGE),
        ("The user per*haps prefers dark mode.", HedgeCategory.PERSONAL_SPECULATION),
        ("The user may.be prefers dark mode.", HedgeCategory.PERSONAL_SPECULATION),
        ("The user probaly prefers dark mode.", HedgeCategory.TECHNICAL_HEDGE),
        ("The user propably prefers dark mode.", HedgeCategory.TECHNICAL_HEDGE),
        ("The user possibily prefers dark mode.", HedgeCategory.TECHNICAL_HEDGE),
        ("The user perhap prefers dark mode.", HedgeCategory.PERSONAL_SPECULATION),
        ("The user prehaps prefers dark mode.", HedgeCategory.PERSONAL_SPECULATION),
        ("The user mayb prefers dark mode.", HedgeCategory.PERSONAL_SPECULATION),
        ("The user supposdly prefers dark mode.", HedgeCategory.TECHNICAL_HEDGE),
    ],
)
def test_stretched_cut_and_misspelled_hedges_are_read(text: str, expected: HedgeCategory) -> None:
    assert outcome(text)[1] is expected


@pytest.mark.parametrize(
    "text",
    [
        # real words one letter from a hedge adverb, and stretched or cut words that make
        # no lexicon word, stay what they are
        "The fastest possible failover is a warm standby.",
        "The probable cause was recorded in the postmortem.",
        "The on-call engineer restarts the broker.",
        "To-do: check the backup job after the upgrade.",
        "The e.g. field lists examples.",
        "The alarm goes brrrr at 6.",
        "The bookkeeping job runs at midnight.",
        "The team said Zzz to the pager.",
    ],
)
def test_words_that_only_look_bent_stay_unflagged(text: str) -> None:
    assert outcome(text) == (HedgeAction.NONE, None)


def test_the_cheap_test_sees_the_new_disguises_and_not_plain_text() -> None:
    for bent in ("maaaybe", "prob-ably", "probaly"):
        lower = f"the user {bent} prefers dark mode."
        assert needs_respelling(lower, byte_words(lower)), bent
    plain = "the user prefers dark mode and restarts the broker."
    assert not needs_respelling(plain, byte_words(plain))
    assert respell("The user probaly prefers it") == "The user probably prefers it"
