"""guards/faithfulness/markers.py: inline citations and what they resolve to."""

from __future__ import annotations

import pytest

from groundwire.guards.faithfulness.markers import find_markers, resolve, source_hash
from groundwire.topics.answers import ContextSource

CONTEXT = [
    ContextSource(id="mem_X", text="Inbox3 is at 60% completion.", source="corpus"),
    ContextSource(id="mem_Y", text="Blockers are OAuth and rate limits.", source="corpus"),
]
IDS = frozenset(s.id for s in CONTEXT)


def refs(text: str) -> list[tuple[str, tuple[int, int] | None]]:
    return [(r.text, r.lines) for m in find_markers(text, IDS) for r in m.refs]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It is at 60% [source:1].", [("source:1", None)]),
        ("It is at 60% [1].", [("1", None)]),
        ("It is at 60% [mem_X].", [("mem_X", None)]),
        ("Two [source:1, source:2].", [("source:1", None), ("source:2", None)]),
        ("Two [1][2].", [("1", None), ("2", None)]),
        ("Lines [source:2 L10-L12].", [("source:2", (10, 12))]),
        ("Lines [mem_Y, lines 3-5].", [("mem_Y", (3, 5))]),
        ("Lines [mem_Y#L3].", [("mem_Y", (3, 3))]),
        ("Invented [mem_Z].", [("mem_Z", None)]),
        ("Model output [chat:42].", [("chat:42", None)]),
    ],
)
def test_marker_forms(text: str, expected: list[tuple[str, tuple[int, int] | None]]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize(
    "text",
    ["It was fine [sic].", "See [the docs](https://example.com).", "[citation needed]", "[ ]"],
)
def test_prose_in_brackets_is_no_citation(text: str) -> None:
    assert find_markers(text, IDS) == []


def test_resolution_by_id_index_and_hash() -> None:
    digest = source_hash(CONTEXT[1].text)
    assert resolve("mem_X", CONTEXT) == "mem_X"
    assert resolve("source:2", CONTEXT) == "mem_Y"
    assert resolve("2", CONTEXT) == "mem_Y"
    assert resolve(digest[:8], CONTEXT) == "mem_Y"
    assert resolve(digest[:12].upper(), CONTEXT) == "mem_Y"


@pytest.mark.parametrize("ref", ["source:3", "0", "mem_Z", "deadbeef00", "chat:42"])
def test_what_names_no_source_is_a_phantom(ref: str) -> None:
    assert resolve(ref, CONTEXT) is None


def test_markers_are_bounded() -> None:
    assert len(find_markers("[1] " * 1_000, IDS, max_markers=10)) == 10
