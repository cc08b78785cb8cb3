"""Session 13 red team: a hedge word glued to non-ASCII quotation marks ("“probably”",
"«probably»", "「probably」") never reached the patterns, because the word-set check
split words at ASCII punctuation only; and a hedge word spelled with one symbol between
its letters ("p+r+o+b+a+b+l+y", "p•r•o•b…", "p, r, o, b, …") was not joined. Each attack
is checked with a control of the same shape that holds no hedge."""

from __future__ import annotations

import pytest

from groundwire.guards.hedge import HedgeDetector
from groundwire.guards.hedge.lexicon import byte_words


def _action(text: str) -> str:
    return HedgeDetector().analyze(text).action.value


@pytest.mark.parametrize(
    "text",
    [
        "We use Redis for the session cache, \u201cprobably\u201d.",
        "We use Redis for the session cache, \u00abprobably\u00bb.",
        "We use Redis for the session cache, \u2039probably\u203a.",
        "We use Redis for the session cache, \u300cprobably\u300d.",
        "We use Redis, \u201eI think\u201c.",
    ],
)
def test_a_hedge_in_non_ascii_quotes_is_read(text: str) -> None:
    assert _action(text) != "none", text


@pytest.mark.parametrize(
    "text",
    [
        "We p+r+o+b+a+b+l+y use Redis for the session cache.",
        "We p~r~o~b~a~b~l~y use Redis for the session cache.",
        "We p=r=o=b=a=b=l=y use Redis for the session cache.",
        "We p\u2022r\u2022o\u2022b\u2022a\u2022b\u2022l\u2022y use Redis for the session cache.",
        "We p, r, o, b, a, b, l, y use Redis for the session cache.",
        "We p\u00b7 r\u00b7 o\u00b7 b\u00b7 a\u00b7 b\u00b7 l\u00b7 y use Redis for the cache.",
    ],
)
def test_a_hedge_spelled_with_one_symbol_between_letters_is_read(text: str) -> None:
    assert _action(text) != "none", text


@pytest.mark.parametrize(
    "text",
    [
        "We use \u201cRedis\u201d for the \u00absession\u00bb cache.",
        "The Moscow team calls the cache \u00ab\u043a\u044d\u0448\u00bb.",
        "Scores add up: 1+2+3 = 6.",
        "Options a, b, c and d are listed in the form.",
        "Grades: A\u2022B\u2022C.",
        "Use x~y~z as the key order.",
    ],
)
def test_quotes_and_symbol_runs_without_a_hedge_stay_clean(text: str) -> None:
    assert _action(text) == "none", text


def test_byte_words_splits_non_ascii_marks_and_keeps_letters() -> None:
    assert byte_words("\u00abprobably\u00bb \u043a\u044d\u0448") == [
        b"probably",
        "\u043a\u044d\u0448".encode(),
    ]
    assert byte_words("it's a-b") == [b"it", b"s", b"a", b"b"]  # ASCII as before
