"""The clause cuts of an answer's sentence (`split._CLAUSE_CUT`, session 12): a cut that
opens with whitespace starts where its run starts, so a long run of spaces is read once
(before, each of its spaces was tried in turn: quadratic; timed in bench, never here).
The cuts are the ones the pattern without the look-behinds finds."""

from __future__ import annotations

import random
import re

from groundwire.guards.faithfulness.split import _CLAUSE_CUT, _clauses

_REFERENCE = re.compile(
    r";\s+|,\s+(?=(?:and|but|while|whereas|although|though|yet|so)\s)|"
    r"\s+(?=(?:but|whereas|although)\s)|"
    r"(?:\s+-{1,2}\s+|\s*[–—]\s*)(?=(?:and|but|while|whereas|although|though|yet|so)\s)|"
    r",\s+(?=(?:i|we|you|he|she|they|i'[a-z]{1,2}|we'[a-z]{1,2}|you'[a-z]{1,2})\s)",
    re.IGNORECASE,
)


def test_cuts_are_the_reference_patterns() -> None:
    rng = random.Random(5)
    parts = [" ", "  ", "\t", ",", ";", "and ", "but ", "So ", "-", "--", "—", "–", "x", "I "]
    parts += ["we'll ", "although", "\n"]
    for _ in range(30_000):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 10)))
        a = rng.randint(0, len(text))
        b = rng.randint(a, len(text))
        want = [m.end() for m in _REFERENCE.finditer(text, a, b)]
        assert [a + m.end() for m in _CLAUSE_CUT.finditer(text[a:b])] == want, (text, a, b)


def test_clauses_cut_before_but_after_a_long_run_of_spaces() -> None:
    text = "The build passed on Monday" + " " * 5_000 + "but the deploy failed on Tuesday."
    spans = _clauses(text, 0, len(text))
    assert len(spans) == 2
    assert text[spans[1][0] : spans[1][1]].startswith("but the deploy")
    control = "The build passed on Monday and the deploy failed on Tuesday."
    assert len(_clauses(control, 0, len(control))) == 1  # no cut before "and" without a comma
