"""Session 14b: a capitalised word inside a sentence, one edit from a hedge adverb and
right after a title or a given name, is a name ("Ms Mabe", "Tom Mabe"), read as written
by the one-edit misspelling rule and the eye-dialect rule alike
(`spelling._written_as_name`, one helper for both). The same word alone ("said Mabe",
"The cache is Probaly Redis": a capital is no disguise), at a sentence's start, in lower
case or in capitals is still the hedge."""

from __future__ import annotations

import pytest

from groundwire.guards.hedge import analyze
from groundwire.topics.vocab import HedgeAction

NONE = HedgeAction.NONE


@pytest.mark.parametrize(
    "text",
    [
        "We use Redis, said Tom Mabe in the meeting.",
        "Ask Ms Mabe about the Redis cache.",
        "The budget was approved by Tom Mabe and Ann Lee.",
        # the eye-dialect rule, unchanged
        "Ms Mabey approved the budget.",
    ],
)
def test_a_capitalised_misspelling_inside_a_sentence_is_a_name(text: str) -> None:
    assert analyze(text).action is NONE


@pytest.mark.parametrize(
    "text",
    [
        "We mabe use Redis.",
        "We use Redis, said Mabe in the meeting.",
        "The cache is Probaly Redis.",
        "The cache is Probly Redis.",
        "Mabe we use Redis.",
        "We MABE use Redis.",
        'The cache is Redis. "Mabe."',
        "We probaly use Redis.",
        "Probaly the cache is Redis.",
        "We use Redis. Perhap the cache too.",
    ],
)
def test_the_misspelling_elsewhere_is_still_the_hedge(text: str) -> None:
    report = analyze(text)
    assert report.action is not NONE
    assert report.words
