"""Session 10: citations written so that a pattern for the plain form misses them
(docs/spec.md §Citations), each with a control of ordinary text."""

from __future__ import annotations

import pytest

from groundwire.guards.canonical import canonical
from groundwire.guards.citations import detect


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("See hxxps://example[.]com/x", "https://example.com/x"),
        ("See HXXP://example[.]com/x", "http://example.com/x"),
        ("See https[:]//example.com/x", "https://example.com/x"),
        ("See h t t p s://example.com/x", "https://example.com/x"),
        ("See https\uff1a//example.com/x", "https://example.com/x"),
        ("See www.example.com/x.", "https://www.example.com/x"),
        ("Decided in A D R - 003", "ADR-003"),
        ("Decided in ADR - 3", "ADR-3"),
        ("Tracked in issue # 123", "#123"),
        ("Tracked in GH - 456", "#456"),
    ],
)
def test_disguised_citation_is_detected(text: str, value: str) -> None:
    assert [c.value for c in detect(canonical(text))] == [value]


@pytest.mark.parametrize(
    "text",
    [
        "We use Redis for caching",
        "The regex (.) matches one character; a[.]b is a class",
        "# 1 Introduction",
        "The high - 5 was loud",
        "It was a thoughtful - 3 point win",
        "We have 123 nodes and the adrenaline was high",
    ],
)
def test_ordinary_text_cites_nothing(text: str) -> None:
    assert detect(canonical(text)) == []


def test_offsets_point_into_the_text_as_given() -> None:
    text = "a[.]b per hxxp://q[.]r/t and #12"
    found = detect(text)
    assert [text[c.start : c.end] for c in found] == ["hxxp://q[.]r/t", "#12"]
    assert [c.value for c in found] == ["http://q.r/t", "#12"]
