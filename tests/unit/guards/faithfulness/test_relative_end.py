"""Where a non-restrictive relative clause ends (`frames._relative_end`, session 12): the
first mark after it, without the whitespace before that mark. The whitespace is stepped
over by hand because a pattern searched with a leading "\\s*" retried a long run of
spaces from each of its spaces (quadratic; timed in bench, never here)."""

from __future__ import annotations

import random
import re

from groundwire.guards.faithfulness.frames import _relative_end, presupposed_relatives

# the pattern as it was, with its leading "\s*": the reference for the ends it gives
_WITH_SPACES = re.compile(r"\s*(?:[,;:!?()]|\.(?:\s|$)|\s[-\u2013\u2014]\s|[\u2013\u2014])")


def _reference(text: str, at: int) -> int:
    stop = _WITH_SPACES.search(text, at)
    return stop.start() if stop is not None else len(text.rstrip(" .!?"))


def test_relative_end_matches_the_spaced_pattern() -> None:
    rng = random.Random(3)
    parts = [" ", "  ", "\t", ",", ".", "a", "b", " - ", "\u2014", "-", "!", "\n", "(", ".x"]
    for _ in range(20_000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 12)))
        at = rng.randint(0, len(text))
        assert _relative_end(text, at) == _reference(text, at), (text, at)


def test_clause_ends_before_the_spaces_before_its_comma() -> None:
    ((_, clause),) = presupposed_relatives("I like Dana, who became CFO in 2023   , a lot.")
    assert clause.frame == "who"
    text = "I like Dana, who became CFO in 2023   , a lot."
    assert text[clause.start : clause.end] == "became CFO in 2023"


def test_ends_in_that_matches_the_spaced_pattern() -> None:
    from groundwire.guards.faithfulness.frames import _ends_in_that

    reference = re.compile(r"\s+that\s+$", re.IGNORECASE)
    rng = random.Random(9)
    parts = [" ", "\n", "\t", "that", "THAT", "x", "Note", ":", "tha", "t"]
    for _ in range(20_000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 8)))
        assert _ends_in_that(text) == (reference.search(text) is not None), repr(text)
    assert _ends_in_that("Note that ") and not _ends_in_that("Note: ")
