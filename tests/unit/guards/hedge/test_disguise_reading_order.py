"""Session 13: the order in which the hedge guard undoes two disguises (docs/spec.md
§Hedges). A hedge word cut by a space is rejoined before a misspelling of its first piece
is respelled ("suppos edly" is "supposedly", not "suppose"), and a right-to-left override
inside a word leaves the hedge words the written reading read to the stored order
("perhap\u202es 5" is "perhaps 5", not the torn drawing "perhap5 s"). Each with controls
that keep their verdict."""

from __future__ import annotations

import pytest

from groundwire.guards.hedge import analyze
from groundwire.topics.vocab import HedgeAction

BLOCK, REVIEW = HedgeAction.BLOCK, HedgeAction.REVIEW


def _reading(text: str) -> tuple[HedgeAction, str | None]:
    report = analyze(text)
    return report.action, None if report.category is None else report.category.value


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        # a split hedge word whose first piece is also a misspelling of another target
        (
            "Suppos edly the cache is rebuilt every night.",
            "Supposedly the cache is rebuilt every night.",
        ),
        (
            "The cache is suppos edly rebuilt every night.",
            "The cache is supposedly rebuilt every night.",
        ),
        # the override cutting a lexicon word: read as the word with its number
        ("perhap\u202es 5", "perhaps 5"),
        ("The queue holds perhap\u202es 5 messages.", "The queue holds perhaps 5 messages."),
        ("The queue holds perhap\u202es\u202c 5 messages.", "The queue holds perhaps 5 messages."),
        # inside the number of an approximation: drawn "perhaps ~.6 ... 55"
        ("Perhaps ~\u202e55 the queue drains before 6.", "Perhaps ~55 the queue drains before 6."),
    ],
)
def test_the_disguise_reads_like_the_plain_phrase(text: str, plain: str) -> None:
    assert _reading(text) == _reading(plain)
    assert _reading(text)[0] is REVIEW


@pytest.mark.parametrize(
    ("text", "action", "category"),
    [
        # the misspelled verb alone is still the verb (session 10)
        ("I suppos the cache is rebuilt every night.", BLOCK, "personal_speculation"),
        # two words that are both lexicon words stay apart: the modal and a verb
        ("The cache may be rebuilt every night.", REVIEW, "technical_hedge"),
        # a cut hedge word with a piece that is no lexicon word is rejoined, as before
        ("Per haps the cache is rebuilt every night.", BLOCK, "personal_speculation"),
        ("I beli eve the cache is rebuilt every night.", BLOCK, "personal_speculation"),
        # overrides that hide a hedge are still drawn
        ("We use \u202eebyam\u202c Redis", BLOCK, "personal_speculation"),
        ("\u202eredis esu ew kniht I", BLOCK, "personal_speculation"),
        # inside a word the written reading reads no hedge in: drawn "I think is Redis"
        ("I th\u202ekni\u202c is Redis", BLOCK, "personal_speculation"),
        # after the word it cuts, the rest of the stretch is still drawn: "usually, I think"
        ("The cache is warm, usual\u202ely kniht I ,", BLOCK, "personal_speculation"),
        ("Maybe \u202e5 si ti", BLOCK, "personal_speculation"),
    ],
)
def test_controls_keep_their_reading(text: str, action: HedgeAction, category: str) -> None:
    assert _reading(text) == (action, category)
