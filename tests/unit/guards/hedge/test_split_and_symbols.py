"""Session 10: hedge words written apart or with symbols (docs/guards.md §Hedge detection).

Each disguise is caught, and an ordinary text of the same shape is left alone."""

from __future__ import annotations

import pytest

from groundwire.guards.hedge import analyze
from groundwire.guards.hedge.lexicon import byte_words
from groundwire.guards.hedge.split import needs_rejoin, rejoin


def _action(text: str) -> str:
    return str(analyze(text).action)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # a word cut in two by a space, or by a hyphen and a line break
        ("I th ink we use Redis", "block"),
        ("I thi nk we use Redis", "block"),
        ("I thi\nnk we use Redis", "block"),
        ("I th-\nink we use Redis", "block"),
        ("We per haps use Redis", "block"),
        ("We prob ably use Redis", "review"),
        ("I be lieve we use Redis", "block"),
        # "I" and a verb of belief apart
        ("I... think we use Redis", "block"),
        ("I -- think -- we use Redis", "block"),
        ("I, uh, think we use Redis", "block"),
        ('I "think" we use Redis', "block"),
        ("I 'think' we use Redis", "block"),
        ("I (think) we use Redis", "block"),
        ("I|think we use Redis", "block"),
        ("I 🤔 think we use Redis", "block"),
        ("l think we use Redis", "block"),
        ("I!!! think we use Redis", "block"),
        ("I ?! think we use Redis", "block"),
        ("I ~think~ we use Redis", "block"),
        # repeated marks inside a word
        ("m..a..y..b..e we use Redis", "block"),
        ("p--r--o--b--a--b--l--y we use Redis", "review"),
        ("per--haps we use Redis", "block"),
        ("prob__ably we use Redis", "review"),
        ("We pro bab ly use Redis", "review"),
        ("IThink we use Redis", "block"),
        ("We use Redis #IThink", "block"),
        # symbols for letters
        ("m@ybe we use Redis", "block"),
        ("I th!nk we use Redis", "block"),
        ("po$$ibly we use Redis", "review"),
        ("prob4b|y we use Redis", "review"),
        ("We @llegedly use Redis", "review"),
        # an adverb after "appears" is an open class, not lexicon words: "|" for "l" in
        # an "-ly" word reads as that adverb (session 18: Hypothesis found "ｘ|y")
        ("It appears c|ear|y the cache is rebuilt", "review"),
        ("appears ｘ|y the cache is rebuilt every night.", "review"),
        # attitude verbs misspelled by one letter; Cyrillic letters that look like small
        # capitals
        ("I belive we use Redis", "block"),
        ("I beleive we use Redis", "block"),
        ("I supose we use Redis", "block"),
        ("I тhink we use Redis", "block"),
        ("I тh ink we use Redis", "block"),
        # letters spelled with "/", "|" or a mark and a space between them
        ("p/r/o/b/a/b/l/y we use Redis", "review"),
        ("p. r. o. b. a. b. l. y we use Redis", "review"),
        # reversed under a right-to-left override (guards/canonical.py)
        ("\u202eredis esu ew kniht I", "block"),
        ("We use \u202eebyam\u202c Redis", "block"),
        # an HTML comment inside a word, as a renderer drops it
        ("I th<!-- x -->ink we use Redis", "block"),
        # %-escapes outside a URL (guards/canonical.py)
        ("I%20think we use Redis", "block"),
        ("We %70robably use Redis", "review"),
    ],
)
def test_disguise_is_read(text: str, action: str) -> None:
    assert _action(text) == action


@pytest.mark.parametrize(
    "text",
    [
        "We bought th ink cartridges for the printer",
        "The firm did the work pro bono",
        "Part I. Think about the cache first",
        "Mail bob@example.com about the invoice",
        "It costs US$5 a month",
        "Columns a/b/c hold the totals",
        "J. R. R. Tolkien wrote the book",
        "CPU is at 90%20 cores busy",
        "Wow! Redis is fast",
        "Model l: think about the load first",
        "Ping @bob about the invoice",
        "Who? I? Think about the cache first.",
        "The well--known cache is Redis",
        "We use on--call rotations",
        "I thank the team for the release",
        "Our recon team mapped the network",
        "See https://example.com/I%20think for details",
        "The x|y filter runs nightly",
    ],
)
def test_ordinary_text_is_not_flagged(text: str) -> None:
    assert _action(text) == "none"


def test_may_be_stays_two_words() -> None:
    """Both pieces of "may be" are words of their own: the modal stays a modal (review),
    never the blocking adverb "maybe"."""
    assert needs_rejoin(frozenset(byte_words("it may be redis"))) == []
    assert _action("It may be Redis") == "review"


def test_rejoin_only_where_the_pieces_touch() -> None:
    text = "th is ink"
    pairs = needs_rejoin(frozenset(byte_words(text)))
    assert pairs == [("th", "ink")]
    assert rejoin(text, pairs) == text
