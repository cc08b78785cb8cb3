"""`first_turned`: the one decision session 18's closed-class rules share (a claim's term
is turned round only when the source words its subject the other way and never the
claim's way)."""

from __future__ import annotations

from collections.abc import Iterator

from groundwire.guards.grounding.lexical.turned_terms import first_turned


def test_the_first_other_wording_when_none_agrees() -> None:
    assert first_turned([(False, "until May"), (False, "till May")]) == "until May"


def test_an_agreeing_reading_anywhere_clears_the_claim() -> None:
    assert first_turned([(False, "until May"), (True, "since May")]) is None
    assert first_turned([(True, "since May"), (False, "until May")]) is None


def test_no_reading_is_no_contradiction() -> None:
    assert first_turned([]) is None


def test_readings_are_left_at_the_first_agreement() -> None:
    read: list[str] = []

    def readings() -> Iterator[tuple[bool, str]]:
        for agrees, words in [(False, "a"), (True, "b"), (False, "c")]:
            read.append(words)
            yield agrees, words

    assert first_turned(readings()) is None
    assert read == ["a", "b"]
