"""The cheap tests in front of three session-15 rules (session 15, round 2: screen-stage
CPU). Each gate skips a walk only where the walk could find nothing, so these hold the
rules' answers on both sides of every gate: a case the gate must let through to the walk
(non-ASCII text, the joined word in a later turn, a prefix on either side, a conjecture
opening a later sentence) and a control the gate answers alone."""

from __future__ import annotations

import pytest

from groundwire.guards.grounding.lexical.derived_opposites import (
    derived_opposite,
    may_have_derived,
)
from groundwire.guards.grounding.lexical.sentence_conjecture import sentence_conjecture
from groundwire.guards.grounding.lexical.split_words import _ALPHA, _claim_lows, close_split_words
from groundwire.topics.records import SourceTurn

CAST = "Cast: Leonardo DiCaprio as Dom Cobb, a thief who steals secrets from dreams."
GAME = "An average NFL game only has 11 minutes of live gameplay. The season has 17 weeks."


def turns_of(*texts: str) -> list[SourceTurn]:
    return [SourceTurn(id=f"t{k}", text=t) for k, t in enumerate(texts)]


# --- split_words: the joined-word gate and its ASCII word pattern ---------------------


@pytest.mark.parametrize(
    ("claim", "sources", "expected"),
    [
        ("It has Di Caprio in it.", (CAST,), "It has DiCaprio in it."),
        # non-ASCII claim text: the Unicode word pattern, not the ASCII one
        ("Le film a Di Caprio, très bien.", (CAST,), "Le film a DiCaprio, très bien."),
        # the split word itself non-ASCII
        ("Send the ré sumé today.", ("Please send your Résumé today.",), "Send the Résumé today."),
        # the closed word only in a later turn: every turn is asked
        ("It has Di Caprio in it.", ("Nothing here.", CAST), "It has DiCaprio in it."),
    ],
)
def test_split_words_still_join_through_the_gate(
    claim: str, sources: tuple[str, ...], expected: str
) -> None:
    assert close_split_words(claim, turns_of(*sources)) == expected


@pytest.mark.parametrize(
    "claim",
    ["It has Leonardo in it.", "Word", "", "Dom Cobb steals secrets from dreams."],
)
def test_split_words_gate_returns_the_claim_itself(claim: str) -> None:
    assert close_split_words(claim, turns_of(CAST)) is claim


# --- split_words: the claim's letter runs read from `claim_words` (round 3) -----------

_LOW_CASES = [
    "It has Di Caprio in it.",  # letters only: the analysis's tokens
    "It's got Di Caprio's face, don't you think?",  # apostrophes between letters
    "rock'n'roll and Mc Donald",  # a token ending where another apostrophe starts
    "The 3D film ran 2.5 hours at 40% off",  # digits, a decimal, "%": the regex
    "Le film a Di Caprio, très bien.",  # non-ASCII: the Unicode regex
    "It has n0t got Di Caprio",  # a disguise `fold_disguises` rewrites: the regex
    "see it &amp; Di Caprio",  # a character reference: the regex
    "abc123def ghi_jkl",  # letters around a digit and an underscore
    "'quoted' words -- and ''double'' ones",
    "",
    "Word",
]


@pytest.mark.parametrize("claim", _LOW_CASES)
def test_claim_lows_are_the_regex_reading(claim: str) -> None:
    assert _claim_lows(claim) == [w.lower() for w in _ALPHA.findall(claim)]


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        # read from the tokens (letters and apostrophes only)
        ("It's got Di Caprio's face.", "It's got DiCaprio's face."),
        # read by regex (a digit in the claim)
        ("In 2010 it had Di Caprio.", "In 2010 it had DiCaprio."),
    ],
)
def test_split_words_join_on_both_readings(claim: str, expected: str) -> None:
    assert close_split_words(claim, turns_of(CAST)) == expected


@pytest.mark.parametrize("claim", ["It's got Leonardo in it.", "In 2010 it had Leonardo."])
def test_split_words_unjoined_on_both_readings(claim: str) -> None:
    assert close_split_words(claim, turns_of(CAST)) is claim


# --- derived_opposites: the whole-claim cheap test and the prefix fast path -----------


@pytest.mark.parametrize(
    ("lows", "content", "source", "expected"),
    [
        (["they", "unredis"], [False, True], {"redis"}, True),  # claim word = un + source word
        (["they", "redis"], [False, True], {"disredis"}, True),  # source word = dis + claim word
        (["they", "unredis"], [True, False], {"redis"}, False),  # only content words count
        (["they", "redis"], [False, True], {"redis"}, False),
        (["we", "removed", "it"], [False, True, False], set(), True),  # the bridged table
        # round 3: the substring test before the per-word prefix loop
        (["they", "disredis"], [False, True], {"redis"}, True),  # "dis" + a source word
        (["run", "undo", "redis"], [True, False, True], {"do"}, False),  # not a content word
        (["they", "redisun"], [False, True], {"redis"}, False),  # the prefix not at the start
        (["fun", "redis"], [True, True], {"redis"}, False),  # "un" ends a word, opens none
        (["fun", "unredis"], [True, True], {"redis"}, True),  # the second word has it
    ],
)
def test_may_have_derived(
    lows: list[str], content: list[bool], source: set[str], expected: bool
) -> None:
    assert may_have_derived(lows, content, source) is expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("uninstalled", "installed", True),
        ("unmounted", "mounted", True),
        ("unit", "it", False),  # a stem under four letters
        ("removed", "added", True),  # no prefix: the table decides
        ("redis", "cache", False),
    ],
)
def test_derived_opposite_both_ways(a: str, b: str, expected: bool) -> None:
    assert derived_opposite(a, b) is expected
    assert derived_opposite(b, a) is expected


# --- sentence_conjecture: the first-person gate ----------------------------------------


@pytest.mark.parametrize(
    "claim",
    [
        "The season has 17 weeks. I think an average game has only 11 minutes of gameplay.",
        # a sentence after a blank line: any white space ends it, for the gate as the rule
        "The season has 17 weeks.\n\nI think an average game has only 11 minutes.",
    ],
)
def test_a_later_conjecture_passes_the_gate(claim: str) -> None:
    assert sentence_conjecture(claim, turns_of(GAME))


@pytest.mark.parametrize(
    "claim",
    [
        "The season has 17 weeks. An average game has only 11 minutes of gameplay.",
        "The season has 17 weeks. The coach told me it has 11 minutes of gameplay.",
    ],
)
def test_plain_sentences_stay_plain(claim: str) -> None:
    assert sentence_conjecture(claim, turns_of(GAME)) == []


def test_the_lemma_word_set_is_what_lemmas_finds() -> None:
    """`_LEMMA_WORDS` (the set `may_have_derived` asks) holds exactly the words `_lemmas`
    finds something for, over every word of the tables and of their inflections, each
    with the detachable endings on and off."""
    from groundwire.guards.grounding.lexical import derived_opposites as d
    from groundwire.guards.grounding.lexical.antonyms import _DETACH, _EXCEPTIONS, _SIDES

    vocabulary = set(d._PAIRS) | set(_EXCEPTIONS) | set(_SIDES)
    for word in list(vocabulary):
        for suffix, repl in _DETACH:
            vocabulary.add(word + suffix)
            if word.endswith(suffix):
                vocabulary.add(word[: -len(suffix)] + repl)
    vocabulary |= {"ad", "ads", "a", "s", "es", "ing", "unmounted", "redis"}
    wrong = [w for w in vocabulary if (w in d._LEMMA_WORDS) != bool(d._lemmas(w))]
    assert wrong == []
    assert "added" in d._LEMMA_WORDS  # a control: an inflected table word is in


def test_may_have_derived_refuses_unequal_lengths() -> None:
    with pytest.raises(ValueError):
        may_have_derived(["we", "removed"], [True], set())
