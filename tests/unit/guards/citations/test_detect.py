"""Citation detection: the four kinds of docs/spec.md §Citations and its filtering."""

from __future__ import annotations

import pytest

from groundwire.guards.citations import CitationType, detect


def _pairs(text: str) -> list[tuple[str, str]]:
    return [(c.type.value, c.value) for c in detect(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Per ADR-003, we use Pixeltable", [("adr", "ADR-003")]),
        ("See [ADR 12] for the rationale", [("adr", "ADR-12")]),
        ("Fixed in commit a1b2c3d4e5f6", [("commit", "a1b2c3d4e5f6")]),
        ("See https://docs.example.com/api", [("url", "https://docs.example.com/api")]),
        ("Tracked in #123 and GH-456", [("issue", "#123"), ("issue", "#456")]),
    ],
)
def test_spec_patterns(text: str, expected: list[tuple[str, str]]) -> None:
    assert _pairs(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Per A.D.R.-999, we use Redis", ["ADR-999"]),
        ("Per A.D.R. 12 we use Redis", ["ADR-12"]),
        ("Per A D R 7, we use Redis", ["ADR-7"]),
        ("I read a dr 5 times", []),
        ("In a.d. 2024 we moved", []),
    ],
)
def test_an_adr_spelled_with_its_letters_apart_is_an_adr(text: str, expected: list[str]) -> None:
    assert [c.value for c in detect(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Per ADR #999, we use Redis", [("adr", "ADR-999")]),
        ("Per ADR#12 we use Redis", [("adr", "ADR-12")]),
        ("Per ADR: 12 we use Redis", [("adr", "ADR-12")]),
        ("Per ADR no. 12 we use Redis", [("adr", "ADR-12")]),
        ("Per ADR number 12 we use Redis", [("adr", "ADR-12")]),
        ("Per architecture decision record 999, we use Redis", [("adr", "ADR-999")]),
        ("See decision record #41 for why", [("adr", "ADR-41")]),
        # the words without a number are no citation; an issue beside an ADR stays one
        ("We keep a decision record for every choice", []),
        ("ADR-3 and #77 agree", [("adr", "ADR-3"), ("issue", "#77")]),
    ],
)
def test_an_adr_numbered_another_way_is_an_adr_not_an_issue(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert _pairs(text) == expected


def test_colour_codes_are_not_citations() -> None:
    assert _pairs("The header colour is #abc123 and the border #112233") == []
    assert _pairs("Overlay uses #aabbccdd") == []


def test_urls_stripped_before_commit_detection() -> None:
    text = "Docs at https://git.example.com/repo/commit/a1b2c3d4e5f60718 explain it."
    assert _pairs(text) == [("url", "https://git.example.com/repo/commit/a1b2c3d4e5f60718")]


def test_url_trailing_punctuation() -> None:
    assert _pairs("(see https://example.com/a.)") == [("url", "https://example.com/a")]
    assert _pairs("wiki https://en.example.org/wiki/X_(y).") == [
        ("url", "https://en.example.org/wiki/X_(y)")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Order 12345678 shipped",  # all digits: a number
        "The page was defaced badly",  # hex letters only: an English word
        "Request 123e4567-e89b-12d3-a456-426614174000 failed",  # UUID
        "Mask 0xdeadbeef01 is applied",  # hex literal
    ],
)
def test_commit_false_positives(text: str) -> None:
    assert [c for c in detect(text) if c.type is CitationType.COMMIT] == []


def test_numbers_and_positions() -> None:
    cits = detect("ADR-0007 and #42")
    assert [c.number for c in cits] == [7, 42]
    assert "ADR-0007 and #42"[cits[1].start : cits[1].end] == "#42"


def test_bounded_count() -> None:
    assert len(detect(" ".join(f"#{i}" for i in range(1, 500)))) <= 32


def test_issues_among_colours_at_the_scan_limit() -> None:
    """Issues among colour codes up to the scan limit are told apart (its cost, once
    quadratic, is measured in bench/bench_guards.py, not here)."""
    text = "#abc #1 " * 2_500
    found = detect(text)
    assert [c.value for c in found] == ["#1"] * 32
