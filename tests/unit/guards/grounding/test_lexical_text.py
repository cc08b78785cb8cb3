"""The lexical verifier's faster word and clause readers give what the plain ones gave, and
the text they read is the text as its words show (`fold_disguises`)."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

import pytest

from groundwire.guards.grounding.lexical.text import (
    CONJUNCTIONS,
    WORD,
    clause_cuts,
    clause_ids,
    fold_disguises,
    parts_of,
    word_parts,
)

# The word pattern before its quantifiers were made possessive, and the gap marks before
# the pattern was rewritten to start with one character class.
_PLAIN_WORD = re.compile(r"[A-Za-z0-9]+(?:[.,][0-9]+)*(?:'[A-Za-z]+)?|%")
_PLAIN_GAP = re.compile(r"[,;:.!?()\[\]\"“”]|\s[-–—]+\s")


def _plain_clause_ids(
    text: str, spans: Sequence[tuple[int, int]], lows: Sequence[str]
) -> list[int]:
    """The per-word loop `clause_ids` used to be."""
    if not spans:
        return []
    marks = [m.start() for m in _PLAIN_GAP.finditer(text, spans[0][1], spans[-1][0])]
    marks.append(len(text) + 1)
    out: list[int] = []
    clause = 0
    prev_end = -1
    m = 0
    for (start, end), low in zip(spans, lows, strict=True):
        cut = low in CONJUNCTIONS and prev_end >= 0
        while marks[m] < prev_end:
            m += 1
        if marks[m] < start:
            while marks[m] < start:
                m += 1
            cut = cut or not (
                start - prev_end == 1 and text[start].isdigit() and text[prev_end - 1].isdigit()
            )
        if cut:
            clause += 1
        out.append(clause)
        prev_end = end
    return out


def test_word_pattern_matches_what_the_plain_pattern_matched() -> None:
    rnd = random.Random(1)
    alphabet = "aZ09.,'% -’\n"
    for _ in range(20_000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 14)))
        a = rnd.randint(0, len(text))
        b = rnd.randint(a, len(text))
        got = [m.span() for m in WORD.finditer(text, a, b)]
        assert got == [m.span() for m in _PLAIN_WORD.finditer(text, a, b)], repr(text)


def test_clause_ids_match_the_per_word_loop() -> None:
    rnd = random.Random(3)
    words = ["and", "but", "x", "Yes", "1", "2", "34", "1,200", "2.5", "or", "because", "it's"]
    seps = [" ", ", ", " - ", ":", ". ", " -- ", "; ", "  ", " (", ") ", "\n", " — ", "“", ",", "-"]
    for _ in range(20_000):
        text = rnd.choice(["", " ", ",", "- "]) + "".join(
            rnd.choice(words) + rnd.choice(seps) for _ in range(rnd.randint(0, 8))
        )
        spans = [m.span() for m in WORD.finditer(text)]
        lows = [text[a:b].lower() for a, b in spans]
        got = clause_ids(text, spans, lows)
        assert got == _plain_clause_ids(text, spans, lows), repr(text)
        assert all(type(c) is int for c in got)
        cuts = clause_cuts(text, spans, lows)
        assert [bool(c) for c in cuts] == [i > 0 and got[i] != got[i - 1] for i in range(len(got))]


def test_parts_of_reads_new_and_cached_words_alike() -> None:
    raws = ["Zyxwvut-new", "Five", "1,200", "the", "Zyxwvut-new"]
    first = parts_of(raws)  # some words new: the slow path
    assert first == [word_parts(r) for r in raws]
    assert parts_of(raws) == first  # all cached: the one-pass path
    assert first[1][3] == "5" and first[2][3] == "1200" and not first[3][2]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("is n o t on", "is not   on"),
        ("is N-O-T on", "is not   on"),
        ("is n.e.v.e.r. on", "is never      on"),
        ("i s n t on", "isnt    on"),
        ("is n0t on, w1th0ut it", "is not on, without it"),
        # runs and words of digits that spell no negation stay as written
        ("A.I. and a b c", "A.I. and a b c"),
        ("v1.2.3 MP3 3rd b2b R2D2 n1t", "v1.2.3 MP3 3rd b2b R2D2 n1t"),
        ("option n, o, t", "option n, o, t"),
    ],
)
def test_a_spelled_negation_is_read_at_the_same_offsets(text: str, read: str) -> None:
    assert fold_disguises(text) == read
    assert len(fold_disguises(text)) == len(text)
