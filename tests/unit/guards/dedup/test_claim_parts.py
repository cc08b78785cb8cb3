"""`claim_parts` reads each distinct word once and keeps its reading (`_word_info`): it
must give exactly what the word-by-word readings give (`claim_words`, `order_breaks`,
`negation_spellings`), on a claim's first sight and from the kept readings alike."""

from __future__ import annotations

import random

import pytest

from groundwire.guards.dedup import minhash
from groundwire.guards.dedup.minhash import (
    MAX_ORDER,
    PIECE_BREAK,
    SENTENCE_BREAK,
    claim_parts,
    claim_words,
    negation_spellings,
    order_breaks,
    order_hashes,
    token_hash,
)

# Words chosen for what the readings tell apart: list words, sentence and item ends
# behind closing quotes and brackets, capitals at and inside sentence starts, function
# words and marks with a capital, digits, bullets and dashes, negations in one and two
# words, typographic quotes, non-ASCII letters and lookalikes (canonical text folds them).
_VOCAB = [
    "and", "or", "And", "OR", "and,", "or.", "Alice", "alice", "Bob,", "Bob.", "(Bob)",
    "Carol's", "\"Dave.\"", "Eve:", "Frankfurt;", "AWS", "March?", "The", "We", "the",
    "not", "Not", "can't", "cannot", "can", "do", "don't", "dont", "won't", "never",
    "5432", "v1.2", "ADR-003", "three", "Three", "weekly", "-", "*", "\u2014", "...",
    "reports", "to", "uses", "Postgres,", "Redis", "Kafka.", "enabled", "disabled",
    "caf\u00e9", "\u00c9cole", "Stra\u00dfe", "\u0130stanbul", "\u03a3\u039f\u03a6\u0399\u0391",
    "\u201cQuoted\u201d", "it\u2019s", "n\u200bot", "\uff21\uff22", "x" * 60, "Y" * 55 + ".",
    "ok!", "end.)", "item,\u201d", "a", "I", "I'm",
]  # fmt: skip


def _reference(text: str) -> minhash.ClaimParts:
    words, names, openers = claim_words(text)
    return words, names, openers, order_breaks(text), negation_spellings(text, frozenset(words))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "Uses Postgres, Redis and Kafka. Then Bob left",
        "Alice reports to Bob. Bob reports to Carol, and Dave.",
        "- Alice can't attend; \u2014 Bob cannot. (Carol) does not know.",
        "The team in Frankfurt moved the AWS account in March?",
        "Meeting moved to 5432, weekly, and the port is not open!",
        "\u201cQuoted\u201d text \u2014 Stra\u00dfe in \u0130stanbul, \u03a3\u039f\u03a6.",
    ],
)
def test_claim_parts_is_the_word_by_word_reading(text: str) -> None:
    minhash._WORD_INFO.clear()
    first = claim_parts(text)
    assert first == _reference(text)
    assert claim_parts(text) == first  # from the kept readings


def test_claim_parts_agrees_on_random_claims_cold_and_warm() -> None:
    """Short and long claims (past `MAX_ORDER` content words, where the breaks stop),
    with the punctuated words above and plain made-up words, some repeated."""
    rng = random.Random(15)
    made_up = ["".join(rng.choices("abcdefgh", k=rng.randint(3, 6))) for _ in range(60)]
    minhash._WORD_INFO.clear()
    capped = 0
    for _ in range(4000):
        vocab = _VOCAB + made_up if rng.random() < 0.5 else _VOCAB
        text = " ".join(rng.choices(vocab, k=rng.randint(1, 90)))
        parts = claim_parts(text)
        assert parts == _reference(text), text
        capped += len(parts[0]) > MAX_ORDER + 10
    assert capped > 200  # the cap was reached often


def test_order_hashes_are_the_words_hashes_with_the_breaks_as_marks() -> None:
    rng = random.Random(7)
    for _ in range(500):
        text = " ".join(rng.choices(_VOCAB, k=rng.randint(1, 40)))
        breaks = order_breaks(text)
        expected = tuple(
            PIECE_BREAK if w == "," else SENTENCE_BREAK if w == "." else token_hash(w)
            for w in breaks
        )
        assert order_hashes(breaks) == expected


def test_a_full_table_is_emptied_and_long_words_are_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(minhash, "_WORD_INFO_MAX", 4)
    minhash._WORD_INFO.clear()
    text = "Alice reports to Bob, and " + "z" * 80
    assert claim_parts(text) == _reference(text)
    assert "z" * 80 not in minhash._WORD_INFO
    assert len(minhash._WORD_INFO) == 5  # emptied only when full, before a claim's words
    other = "one two three four five six"
    assert claim_parts(other) == _reference(other)
    assert set(minhash._WORD_INFO) == set(other.split())  # the table was emptied first


def test_case_folding_commutes_with_splitting_on_whitespace() -> None:
    """`_word_info` folds each word alone, the word-by-word reading the whole text:
    the same only if no character folds to or from whitespace (Python's casefold is
    per character)."""
    for cp in range(0x110000):
        c = chr(cp)
        if 0xD800 <= cp <= 0xDFFF:
            continue
        folded = c.casefold()
        assert c.isspace() == any(ch.isspace() for ch in folded), hex(cp)
        if c.isspace():
            assert folded == c, hex(cp)
