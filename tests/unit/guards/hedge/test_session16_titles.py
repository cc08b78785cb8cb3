"""Session 16: a surname that is a hedge verb after a title ("Dr. Guess reviews every
migration") is a name, since a title's full stop ends no sentence (`lexicon._OPENS`);
the subject-dropped hedge ("Guess we use Redis") and the same word opening a clause of
its own after a title ("Dr. Guess we use Redis") stay hedges."""

from __future__ import annotations

import pytest

from groundwire.guards.hedge import analyze
from groundwire.topics.vocab import HedgeAction

BLOCK, NONE = HedgeAction.BLOCK, HedgeAction.NONE


@pytest.mark.parametrize(
    "text",
    [
        "Dr. Guess reviews every schema migration.",
        "Prof. Reckon approved the rollout plan.",
        "Mr. Suppose runs the platform team.",
        "We met Mrs. Guess on Monday. Dr. Guess joined later.",
    ],
)
def test_a_surname_after_a_title_is_no_hedge(text: str) -> None:
    assert analyze(text).action is NONE


@pytest.mark.parametrize(
    "text",
    [
        "Guess we use Redis for the session cache.",
        "Dr. Guess we use Redis for the session cache.",
        "Dr. Guess, we use Redis.",
        "Mr. Reckon the cache is Redis.",
        "The cache is warm. Suppose it's Redis.",
        "Dr. Pretty sure we use Redis.",
    ],
)
def test_the_hedge_still_reads(text: str) -> None:
    assert analyze(text).action is BLOCK
