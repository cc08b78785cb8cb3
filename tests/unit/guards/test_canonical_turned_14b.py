"""Session 14b: upside-down text ("ʎlqɐqoɹd" is "probably" turned half a circle) and
regional-indicator letters ("🇵🇷🇴🇧🇦🇧🇱🇾") in the canonical text (docs/spec.md §Canonical
text). Both tables come from Unicode names (LATIN SMALL LETTER TURNED A, REGIONAL
INDICATOR SYMBOL LETTER P), never a hand list; an upside-down word is read turned back
in place, and the whole line from the right is one of `shown_readings`."""

from __future__ import annotations

import unicodedata

import pytest

from groundwire.guards.canonical import canonical, has_upside_down, shown_readings
from groundwire.guards.hedge import analyze
from groundwire.topics.vocab import HedgeAction


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("We \u028elq\u0250qo\u0279d use Redis.", "We probably use Redis."),
        ("We \u01ddq\u028e\u0250\u026f use Redis.", "We maybe use Redis."),  # "ɯ" is "m" here
        ("sd\u0250\u0265\u0279\u01ddd the cache is Redis", "perhaps the cache is Redis"),
        ("The cache is \u0287ou Redis.", "The cache is not Redis."),
        # an invisible or a combining mark inside does not cut the word in two halves,
        # and a lookalike of a plain letter is turned like that letter ("ԁ" is a "d")
        ("We \u028elq\u200b\u0250qo\u0279d use Redis.", "We probably use Redis."),
        ("The cache is \u0287\u0332o\u0332u\u0332 Redis.", "The cache is not Redis."),
        ("We \u028elq\u0250qo\u0279\u0501 use Redis.", "We probably use Redis."),
    ],
)
def test_an_upside_down_word_reads_turned_back(raw: str, expected: str) -> None:
    assert canonical(raw) == expected
    assert canonical(expected) == expected


def test_regional_indicators_read_as_their_letters() -> None:
    spelled = "".join(chr(0x1F1E6 + ord(c) - ord("A")) for c in "PROBABLY")
    assert canonical(f"{spelled} we use Redis.") == "PROBABLY we use Redis."
    assert canonical("We ship to \U0001f1fa\U0001f1f8.") == "We ship to US."


def test_every_regional_indicator_and_turned_letter_comes_from_its_name() -> None:
    for cp in range(0x1F1E6, 0x1F200):
        letter = unicodedata.name(chr(cp)).rsplit(" ", 1)[1]
        assert canonical(f"x {chr(cp)} x") == f"x {letter} x"
    turned = [
        cp
        for cp in range(0x0180, 0x02B0)
        if unicodedata.name(chr(cp), "").startswith("LATIN SMALL LETTER TURNED ")
        and len(unicodedata.name(chr(cp)).rsplit(" ", 1)[1]) == 1
    ]
    assert len(turned) >= 8
    for cp in turned:
        letter = unicodedata.name(chr(cp)).rsplit(" ", 1)[1].lower()
        # next to a turned "e", so the word is read turned even where "ɯ"/"ʍ" alone is a
        # lookalike; turned back, the "e" comes first
        assert canonical(f"x {chr(cp)}\u01dd x") == f"x e{letter} x"


def test_the_line_from_the_right_is_a_shown_reading() -> None:
    raw = "\u029eu\u1d09\u0265\u0287 I we use Redis."
    assert canonical(raw) == "think I we use Redis."
    assert any(canonical(s).startswith("Redis. use we I think") for s in shown_readings(raw))
    assert "I think" in analyze(raw).words


@pytest.mark.parametrize(
    "raw",
    [
        "We \u028elq\u0250qo\u0279d use Redis.",
        "\u01dd\u028c\u01dd\u1d09l\u01ddq I, we use Redis.",
        "\U0001f1f5\U0001f1f7\U0001f1f4\U0001f1e7\U0001f1e6\U0001f1e7\U0001f1f1\U0001f1fe"
        " we use Redis.",
    ],
)
def test_the_disguised_hedge_is_read(raw: str) -> None:
    assert analyze(raw).action is not HedgeAction.NONE


@pytest.mark.parametrize(
    "raw",
    [
        "\u026fe use Redis.",  # a turned m alone: the lookalike of "w", as before
        "We ship to \U0001f1fa\U0001f1f8 and \U0001f1e9\U0001f1ea.",
        "The IPA for the vowel is /\u0250/.",
        "We use Redis for the cache.",
        "Caf\u00e9 au lait, na\u00efve r\u00e9sum\u00e9.",
    ],
)
def test_controls_keep_their_reading(raw: str) -> None:
    assert analyze(raw).action is HedgeAction.NONE


def test_ascii_and_upright_text_are_not_upside_down() -> None:
    assert not has_upside_down("We probably use Redis.")
    assert not has_upside_down("Caf\u00e9 \u026fe")  # "ɯ" alone is a lookalike
    assert has_upside_down("\u0287ou")
    assert canonical("\u026fe use Redis.") == "we use Redis."
