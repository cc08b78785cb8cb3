"""Session 14 red team of the hedge guard (docs/spec.md §Hedges): hedge words respelled
by sound ("mebbe", `guards/hedge/dialect.py`), a word cut in two with digits for letters
("pr0b ably", `split.leet_pieces`), a right-to-left override after a mark ("Perhaps
~\u202e5 si ti", shown "Perhaps ~it is 5"), the chat abbreviations "iinm" and "afaiu",
letters in parentheses ("⒫⒭⒪⒝..."), hearsay closing a claim ("..., I hear.").
Each with controls that keep their reading."""

from __future__ import annotations

import pytest

from groundwire.guards.hedge import analyze, dialect, spelling
from groundwire.topics.vocab import HedgeAction

BLOCK, REVIEW, NONE = HedgeAction.BLOCK, HedgeAction.REVIEW, HedgeAction.NONE


def _reading(text: str) -> tuple[HedgeAction, str | None]:
    report = analyze(text)
    return report.action, None if report.category is None else report.category.value


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        # eye dialect: vowels respelled, a vowel left out, a consonant doubled
        ("We mebbe use Redis for the session cache.", "We maybe use Redis for the session cache."),
        ("Mebbe the cache is Redis.", "Maybe the cache is Redis."),
        ("We MEBBE use Redis.", "We MAYBE use Redis."),
        ('The cache is Redis. "Mebbe."', 'The cache is Redis. "Maybe."'),
        ("The cache is Redis, mebbe.", "The cache is Redis, maybe."),
        ("We probly use Redis.", "We probably use Redis."),
        ("The cache is Redis, probablee.", "The cache is Redis, probably."),
        ("The cache is Redis, possibley.", "The cache is Redis, possibly."),
        ("The cache is likley Redis.", "The cache is likely Redis."),
        ("I spose the cache is Redis.", "I suppose the cache is Redis."),
        # digits for letters in the pieces of a cut word
        ("We pr0b ably use Redis.", "We probably use Redis."),
        ("We prob 4bly use Redis.", "We probably use Redis."),
        ("We p3r haps use Redis.", "We perhaps use Redis."),
        ("I th1 nk we use Redis.", "I think we use Redis."),
        # chat abbreviations of lexicon phrases
        ("iinm the cache is Redis.", "If I'm not mistaken the cache is Redis."),
        ("AFAIU the cache is Redis.", "As far as I know the cache is Redis."),
        # letters in parentheses (NFKC spells them "(p)(r)(o)...")
        (
            "We \u24ab\u24ad\u24aa\u249d\u249c\u249d\u24a7\u24b4 use Redis.",
            "We probably use Redis.",
        ),
        # hearsay closing the claim, and the generic "one would assume"
        ("We use Redis, I hear.", "We use Redis, reportedly."),
        ("We use Redis, so I've heard.", "We use Redis, reportedly."),
        ("We use Redis, one would assume.", "We use Redis, one would think."),
    ],
)
def test_the_disguise_reads_like_the_plain_hedge(text: str, plain: str) -> None:
    assert _reading(text) == _reading(plain)
    assert _reading(text)[0] is not NONE


def test_an_override_after_a_mark_is_drawn() -> None:
    # shown "Perhaps ~it is 5": "perhaps" with no number after it, speculation (session 13
    # read the override as one inside the word "~5" and kept the stored "Perhaps ~5")
    assert _reading("Perhaps ~\u202e5 si ti") == (BLOCK, "personal_speculation")
    assert _reading("The cache is ~\u202e5 si ti") == (REVIEW, "approximation")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # English words with a hedge word's consonants stay what they are
        ("A possible cause is the cache.", (NONE, None)),
        ("The potential cause is the cache.", (NONE, None)),
        ("The guys use Redis for the session cache.", (NONE, None)),
        ("The geese are in the park.", (NONE, None)),
        ("Thank you, the cache is Redis.", (NONE, None)),
        ("The deploy goes out at 6.", (NONE, None)),
        ("The band was rockin all night.", (NONE, None)),
        ("She bought Maybelline mascara.", (NONE, None)),
        ("Moby Dick is a novel.", (NONE, None)),
        # a capitalised respelling inside a sentence is a name
        ("Ms Mabey approved the budget.", (NONE, None)),
        ("The mob gathered outside.", (NONE, None)),
        # digits in words that are no pieces of a hedge word
        ("We sell b2b software to 3 teams.", (NONE, None)),
        ("The MP3 player has 4 GB.", (NONE, None)),
        # an override inside a word of letters keeps the stored order (session 13)
        ("perhap\u202es 5", (REVIEW, "approximation")),
        # a number that starts with its decimal point is still a number
        ("Perhaps ~.5 of requests fail.", (REVIEW, "approximation")),
        ("Perhaps .5 of requests fail.", (REVIEW, "approximation")),
        # a sound heard, a parenthesised digit, a letter in parentheses written out
        ("I heard the alarm at 6.", (NONE, None)),
        ("We heard it from the vendor, who confirmed it.", (NONE, None)),
        ("Step \u2474 restarts the cache.", (NONE, None)),
        ("Option (b) restarts the cache.", (NONE, None)),
        # tbh / ngl / fwiw are candour, not doubt: no hedge
        ("tbh the cache is Redis.", (NONE, None)),
        ("ngl the cache is Redis.", (NONE, None)),
    ],
)
def test_controls_keep_their_reading(text: str, expected: tuple[HedgeAction, str | None]) -> None:
    assert _reading(text) == expected


@pytest.mark.parametrize(
    ("word", "target"),
    [
        ("mebbe", "maybe"),
        ("probly", "probably"),
        ("possibley", "possibly"),
        ("spose", "suppose"),
        ("likley", "likely"),
        ("thenk", "think"),
    ],
)
def test_dialect_reads_respellings_by_sound(word: str, target: str) -> None:
    assert dialect.reading(word, spelling._SOUND_TARGETS, spelling.lexicon()) == target


@pytest.mark.parametrize(
    "word",
    [
        "possible",  # an English word (WordNet)
        "guys",  # a regular inflection of one
        "rockin",  # "rocking" with its g dropped
        "geese",  # more vowel groups than "guess"
        "mebby",  # three edits from "maybe"
        "mob",  # too short
        "moby",  # three edits from "maybe"
        "probably",  # the word itself
    ],
)
def test_dialect_leaves_words_alone(word: str) -> None:
    assert dialect.reading(word, spelling._SOUND_TARGETS, spelling.lexicon()) is None
