"""The screening fast paths find exactly what the plain scans find."""

from __future__ import annotations

import random
import re

import pytest

from groundwire.guards import artifacts
from groundwire.guards.provenance import _line_anchored, _search_line_starts

_ANCHORED = [
    r"^\s*\(?(?:assistant|ai|model|llm)\)?\s*:",
    r"^a",
    r"^(?:ab|a)b*",
    r"^\s*",
    r"^$",
    r"^(?<=\n)x",
]


def _texts(alphabet: str, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randrange(12))) for _ in range(n)]


@pytest.mark.parametrize("pattern", _ANCHORED)
def test_line_start_search_finds_what_search_finds(pattern: str) -> None:
    assert _line_anchored(pattern, re.MULTILINE)
    sig = re.compile(pattern, re.MULTILINE)
    for text in [*_texts("ab \n(x):\t", 20_000, 1), "(assistant): hi", "x\n ai :", "\n"]:
        want, got = sig.search(text), _search_line_starts(sig, text)
        assert (want is None) == (got is None), (pattern, text)
        if want is not None and got is not None:
            assert want.span() == got.span(), (pattern, text)


@pytest.mark.parametrize(
    ("pattern", "flags"),
    [
        (r"^a|b", re.MULTILINE),  # alternation: not every match starts a line
        (r"(^a)", re.MULTILINE),
        (r"(?-m:^a)", re.MULTILINE),
        (r"\Aa", re.MULTILINE),
        (r"^a", 0),  # without MULTILINE, ^ is the text's start: search as usual
        (r"a^", re.MULTILINE),
        (r"[", re.MULTILINE),  # does not parse
    ],
)
def test_only_top_level_caret_counts_as_anchored(pattern: str, flags: int) -> None:
    assert not _line_anchored(pattern, flags)


def test_marker_patterns_occur_exactly_where_the_plain_ones_do() -> None:
    dot_ext, lower_upper = re.compile(r"\w\.[a-z]"), re.compile(r"[a-z][A-Z]")
    for text in _texts("aA.b_Z9 -éÄK\n", 100_000, 2):
        assert (dot_ext.search(text) is None) == (artifacts._DOT_EXT.search(text) is None), text
        assert (lower_upper.search(text) is None) == (
            artifacts._LOWER_UPPER.search(text) is None
        ), text


@pytest.mark.parametrize(
    "text",
    [
        "plain prose, nothing named.",
        "see retry.py for it",
        "set maxRetries",
        "set max_retries",
        "run with --fast",
        "the `name` field",
        "call retry()",
        "in src/worker/x.py",
        "C:\\app\\run.exe",
        "e.g. this",
    ],
)
def test_named_still_finds_names_behind_each_marker(text: str) -> None:
    names = artifacts._named(text)
    plain = "plain" in text or text.startswith("e.g.")
    assert (names == []) == plain, (text, names)
