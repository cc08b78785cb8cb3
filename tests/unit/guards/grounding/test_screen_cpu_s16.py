"""Session 16 (screen-stage CPU, issue 15 point 2): each cut gives what the code it
replaces gave. The replaced readings are kept here, verbatim, as references, and each
test compares on crafted texts (the edge of every case) and on random ones drawn from an
alphabet of the characters the readings tell apart."""

from __future__ import annotations

import bisect
import random

import pytest

from groundwire.guards.grounding.lexical import text as text_mod
from groundwire.guards.grounding.lexical.text import (
    _GAP_BREAK,
    CONJUNCTIONS,
    WORD,
    _clause_cuts,
    _gap_breaks,
)

# --- text._clause_cuts: the marks found by str.find, the spaced dashes by regex --------


def _old_clause_cuts(text: str, spans: list[tuple[int, int]], lows: list[str]) -> list[int]:
    """`_clause_cuts` before session 16: one `_GAP_BREAK` scan of the whole range."""
    if not spans:
        return []
    cuts: list[int] = list(map(CONJUNCTIONS.__contains__, lows))
    cuts[0] = 0
    if len(spans) > 1:
        starts: list[int] = []
        for m in _GAP_BREAK.finditer(text, spans[0][1], spans[-1][0]):
            if not starts:
                starts = [s for s, _ in spans]
            at = m.start()
            k = bisect.bisect_right(starts, at)
            prev_end = spans[k - 1][1]
            if at < prev_end or cuts[k]:
                continue
            start = starts[k]
            if not (
                start - prev_end == 1 and text[start].isdigit() and text[prev_end - 1].isdigit()
            ):
                cuts[k] = 1
    return cuts


_GAP_CASES = [
    "The cache runs on Redis, and it is not replicated.",
    "Deploy at 2:34 today; the ratio is 3:1 (or so).",
    "It is fast - really fast -- and cheap \u2014 mostly.",
    "a -b - c -- d\u2013e \u2013 f",
    "He said \u201cno\u201d [twice]: then left!  Why? Because.",
    "1,200 users, 2.5 ms, v2.1; done",
    "word\t-\tword\n--\nword",
    "no marks here at all",
    " - - , - ",
    "",
    "x",
]


def _random_text(rng: random.Random) -> str:
    alphabet = 'ab1 ,;:.!?()[]"\u201c\u201d-\u2013\u2014\t\n'
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))


def test_gap_breaks_are_the_patterns_matches() -> None:
    rng = random.Random(16)
    texts = _GAP_CASES + [_random_text(rng) for _ in range(4_000)]
    for text in texts:
        for a, b in [(0, len(text)), *((rng.randint(0, 8), rng.randint(0, 40)) for _ in range(3))]:
            want = sorted(m.start() for m in _GAP_BREAK.finditer(text, a, b))
            assert sorted(_gap_breaks(text, a, b)) == want, (text, a, b)


@pytest.mark.parametrize("text", _GAP_CASES)
def test_clause_cuts_as_before_on_crafted_texts(text: str) -> None:
    spans = [m.span() for m in WORD.finditer(text)]
    lows = [text[s:e].lower() for s, e in spans]
    assert _clause_cuts(text, spans, lows) == _old_clause_cuts(text, spans, lows)


def test_clause_cuts_as_before_on_random_texts() -> None:
    rng = random.Random(61)
    words = ["and", "but", "Redis", "2", "34", "1,200", "it", "x"]
    marks = [" ", " ", " ", ", ", " - ", " -- ", "-", ":", "; ", " (", ") ", "\u2014", " \u2013 "]
    for _ in range(3_000):
        text = "".join(rng.choice(words) + rng.choice(marks) for _ in range(rng.randint(1, 9)))
        spans = [m.span() for m in WORD.finditer(text)]
        lows = [text[s:e].lower() for s, e in spans]
        assert _clause_cuts(text, spans, lows) == _old_clause_cuts(text, spans, lows), text


def test_clause_cuts_control_a_mark_inside_a_number_cuts_nothing() -> None:
    # the marks are found inside words too ("1,200"); they must still be skipped
    text = "It has 1,200 users and 2.5 ms"
    spans = [m.span() for m in WORD.finditer(text)]
    lows = [text[s:e].lower() for s, e in spans]
    assert _clause_cuts(text, spans, lows) == [0, 0, 0, 0, 1, 0, 0]
    assert 8 in _gap_breaks(text, 0, len(text))  # the comma of "1,200" is found


def test_spaced_dash_regex_runs_only_where_a_dash_is(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    class Spy:
        def finditer(self, text: str, a: int, b: int):  # type: ignore[no-untyped-def]
            calls.append(text)
            return text_mod.re.finditer(r"\s[-\u2013\u2014]++\s", text[:b])

    monkeypatch.setattr(text_mod, "_SPACED_DASH", Spy())
    assert _gap_breaks("a, b; c", 0, 7) == [1, 4]
    assert calls == []
    assert _gap_breaks("a - b", 0, 5) == [1]
    assert calls == ["a - b"]


# --- hedge.spelling._tripled: `_STRETCH_HINT` by integer XOR on an ASCII text ---------

_TRIPLE_CASES = [
    "",
    "a",
    "aa",
    "aaa",
    "probaaably",
    "soooo sure",
    "...",
    "   ",
    "AAA",
    "111",
    "\0\0\0",
    "\0\0a",
    "zzz",
    "aab aab",
    "x\u00e9\u00e9\u00e9",
    "caf\u00e9 mmm",
    "the cache is fine",
]


def test_tripled_is_the_stretch_hint() -> None:
    from groundwire.guards.hedge.spelling import _STRETCH_HINT, _tripled

    rng = random.Random(3)
    texts = _TRIPLE_CASES + [
        "".join(rng.choice("aab zZ1.\0\u00e9") for _ in range(rng.randint(0, 12)))
        for _ in range(20_000)
    ]
    for text in texts:
        assert _tripled(text) == (_STRETCH_HINT.search(text) is not None), repr(text)


def test_needs_respelling_still_sees_a_stretched_word_and_not_a_plain_one() -> None:
    from groundwire.guards.hedge.lexicon import byte_words
    from groundwire.guards.hedge.spelling import needs_respelling

    stretched = "we proooobably use redis"
    plain = "we use redis for the cache"
    assert needs_respelling(stretched, byte_words(stretched))
    assert not needs_respelling(plain, byte_words(plain))


# --- text._spelled_negations: the two hints by translation on an ASCII text ----------


def _old_spelled_negations(text: str) -> str:
    """`_spelled_negations` before session 16: both hints by regex."""
    from groundwire.guards.grounding.lexical.text import (
        _MIXED_HINT,
        _MIXED_WORD,
        _RUN_HINT,
        _SPELLED_RUN,
        _as_negation,
    )

    if _RUN_HINT.search(f" {text} "):
        text = _SPELLED_RUN.sub(_as_negation, text)
    if _MIXED_HINT.search(text):
        text = _MIXED_WORD.sub(_as_negation, text)
    return text


_SPELLED_CASES = [
    "It is n o t enabled.",
    "It is n.e.v.e.r on",
    "It is n0t enabled",
    "it i-s-n-t done",
    "it 1snt done",  # a digit before a letter only: the hint's second case
    "it 4rent here",
    "A.I. is a b c",
    "v2 and 3d and x86",
    "plain words only",
    "n o t",
    "_a_b_",
    "1 2 3 4",
    "caf\u00e9 is n o t open, n0t at all",
    "",
]


def test_spelled_negations_as_before() -> None:
    from groundwire.guards.grounding.lexical.text import _spelled_negations

    rng = random.Random(7)
    pieces = ["n", "o", "t", "0", "3", "e", "v", "r", "1", " ", ".", "-", "_", ",", "x9", "'"]
    texts = _SPELLED_CASES + [
        "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14))) for _ in range(20_000)
    ]
    for text in texts:
        assert _spelled_negations(text) == _old_spelled_negations(text), repr(text)


def test_fold_disguises_still_reads_a_spelled_negation_and_leaves_plain_text() -> None:
    from groundwire.guards.grounding.lexical.text import fold_disguises

    assert fold_disguises("It is n o t enabled.") == "It is not   enabled."
    assert fold_disguises("It is n0t enabled.") == "It is not enabled."
    assert fold_disguises("It 1snt enabled.") == "It isnt enabled."
    assert fold_disguises("It runs on x86 with v2.") == "It runs on x86 with v2."
