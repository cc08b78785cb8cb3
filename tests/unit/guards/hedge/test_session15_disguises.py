"""Session 15 red team of the hedge guard: an attitude verb with TH-fronting ("I fink
we ...", `guards/hedge/fronting.py`), the archaic "methinks" written apart ("Me thinks
..."), and a respelled hedge word after a title ("Dr. Mabe we use Redis": the hedge,
"Dr. Mabe runs the cache": a name). Each with controls that keep their reading."""

from __future__ import annotations

import pytest

from groundwire.guards.hedge import analyze, fronting, spelling
from groundwire.topics.vocab import HedgeAction

BLOCK, NONE = HedgeAction.BLOCK, HedgeAction.NONE


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        (
            "I fink we use Redis for the session cache.",
            "I think we use Redis for the session cache.",
        ),
        ("We use Redis, I fink.", "We use Redis, I think."),
        ("I fought we used Redis.", "I thought we used Redis."),
        ("Yes, we fink they're right.", "Yes, we think they're right."),
        ("I fink it's Redis.", "I think it's Redis."),
        ("Me thinks we use Redis.", "Methinks we use Redis."),
        ("Sure, me thinks it is Redis.", "Sure, methinks it is Redis."),
    ],
)
def test_fronted_attitude_verbs_are_written_back(text: str, plain: str) -> None:
    assert fronting.needs_unfronting(text.lower())
    assert fronting.unfront(text) == plain


@pytest.mark.parametrize(
    "text",
    [
        "We fought the fire in the data centre.",  # a fight takes an object
        "We fought.",  # no clause, no comma: the verb itself
        "Bob and I fought it out.",  # "it": an object as well as a subject
        "I fought that battle last year.",  # "that": a determiner here
        "Mike Fink owns the session cache.",  # a surname
        "The fink told the press.",  # the noun
    ],
)
def test_fight_and_names_stay_as_written(text: str) -> None:
    assert fronting.unfront(text) == text
    assert analyze(text).action is NONE


@pytest.mark.parametrize(
    "text",
    [
        "I fink we use Redis for the session cache.",
        "We use Redis for the session cache, I fink.",
        "Me thinks we use Redis for the session cache.",
        "Sure, me thinks the cache is Redis.",
        "Dr. Mabe we use Redis for the session cache.",
        "Mr. Mayb the session cache runs on Redis.",
        "Mabe we use Redis.",
    ],
)
def test_disguised_hedges_block(text: str) -> None:
    assert analyze(text).action is BLOCK


@pytest.mark.parametrize(
    "text",
    [
        "Dr. Mabe runs the session cache on Redis.",  # a title makes it a name
        "Ms. Mabey approved the budget.",
        "Tom Mabe owns Redis.",
        "Give me thinks to do.",  # "me thinks" not opening a sentence
        "Finn says the cache stays on Redis.",
    ],
)
def test_names_and_plain_text_stay_unhedged(text: str) -> None:
    assert analyze(text).action is NONE


def test_respell_leaves_a_title_and_name_alone() -> None:
    text = "Dr. Mabe runs the session cache on Redis."
    assert spelling.respell(text) == text
