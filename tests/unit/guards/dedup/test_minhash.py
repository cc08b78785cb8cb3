"""Tokeniser, exact Jaccard, batch MinHash (pinned to datasketch) and LSH banding."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest
from datasketch import MinHash
from datasketch.hashfunc import sha1_hash32 as datasketch_sha1_hash32

from groundwire.guards.dedup.memory import _replaced
from groundwire.guards.dedup.minhash import (
    PIECE_BREAK,
    SENTENCE_BREAK,
    MinHasher,
    affine32_permutations,
    antonym_forms,
    choose_bands,
    claim_words,
    class_forms,
    contrast_forms,
    contrast_hashes,
    contrasts,
    hash_tokens,
    hashed_jaccard,
    jaccard,
    miss_probability,
    name_words,
    negation_spellings,
    order_breaks,
    ordered_tokens,
    replaced_in_place,
    reversed_roles,
    sha1_hash32,
    token_hash,
    tokenize,
)


def _random_words(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choices("abcdefghijklmnop", k=rng.randint(2, 8))) for _ in range(n)]


def test_tokenize_is_the_spec_lowercase_word_set_with_edge_punctuation_stripped() -> None:
    assert tokenize("Per ADR-003, we use Pixeltable.") == {
        "per",
        "adr-003",
        "we",
        "use",
        "pixeltable",
    }
    assert tokenize("v1.2 (beta)") == {"v1.2", "beta"}
    assert tokenize("“Quoted” — text…") == {"quoted", "text"}
    assert tokenize("  ... !!! ") == frozenset()
    assert tokenize("a A a") == {"a"}


def test_a_disguised_copy_has_the_same_words() -> None:
    """Tokens come from the canonical text: invisible characters, lookalike letters,
    fullwidth forms and markup do not make a copy of a memory new."""
    plain = tokenize("The user prefers dark mode in the IDE.")
    for disguised in (
        "The u\u200bser prefers dark mo\u200dde in the IDE.",  # zero-width characters
        "Th\u0435 us\u0435r pr\u0435f\u0435rs dark m\u043ed\u0435 in th\u0435 IDE.",  # Cyrillic
        "The user prefers dark mode in the \uff29\uff24\uff25.",  # fullwidth
        "The **user** prefers <b>dark</b> mode in the IDE.",  # markup
    ):
        assert tokenize(disguised) == plain, disguised


def test_jaccard_matches_definition_and_empty_is_zero() -> None:
    a, b = tokenize("one two three four"), tokenize("two three four five")
    assert jaccard(a, b) == pytest.approx(3 / 5)
    assert jaccard(frozenset(), frozenset()) == 0.0
    assert jaccard(a, a) == 1.0


def test_hashed_jaccard_equals_word_jaccard_on_random_sets() -> None:
    rng = random.Random(7)
    for _ in range(200):
        words = _random_words(rng, 30)
        a = frozenset(rng.sample(words, rng.randint(1, 30)))
        b = frozenset(rng.sample(words, rng.randint(1, 30)))
        inter, union = hashed_jaccard(hash_tokens(a), hash_tokens(b))
        assert inter / union == jaccard(a, b)


@pytest.mark.parametrize("num_perm", [16, 128])
def test_batch_signatures_equal_datasketch_minhash(num_perm: int) -> None:
    rng = random.Random(num_perm)
    sets = [frozenset(_random_words(rng, rng.randint(0, 40))) for _ in range(50)]
    hasher = MinHasher(num_perm, bands=num_perm // 8, rows=8)
    sigs = hasher.signatures([hash_tokens(s) for s in sets])
    for s, sig in zip(sets, sigs, strict=True):
        ref = MinHash(num_perm=num_perm)
        ref.update_batch([t.encode("utf-8") for t in s])
        assert np.array_equal(ref.hashvalues, sig)


@pytest.mark.parametrize(("num_perm", "seed"), [(16, 1), (128, 1), (128, 42), (256, 0)])
def test_permutations_are_the_ones_datasketch_draws(num_perm: int, seed: int) -> None:
    a, b = affine32_permutations(num_perm, seed)
    ref_a, ref_b = MinHash(num_perm=num_perm, seed=seed, scheme="affine32").permutations
    assert a.dtype == b.dtype == np.uint32
    assert np.array_equal(a, ref_a) and np.array_equal(b, ref_b)
    assert (a % 2 == 1).all()  # odd: each map is a bijection of the 32-bit values


def test_default_permutations_never_move() -> None:
    """Redis indexes store band keys made with the default parameters (128 permutations,
    seed 1); if these ever changed, every stored entry would silently stop matching.
    The digest is of the parameters the index has been built with since it shipped, so
    this fails on a change of numpy's legacy stream or of the drawing code, whatever
    datasketch does."""
    a, b = affine32_permutations(128, 1)
    digest = hashlib.sha256(a.astype("<u4").tobytes() + b.astype("<u4").tobytes()).hexdigest()
    assert digest == "b14750dd0abf30bb02469d6062895f1dee4f3bf2ef2d0a91310e8dafee9dc551"


def test_token_hash_is_datasketchs_sha1_hash32() -> None:
    rng = random.Random(3)
    words = [*_random_words(rng, 200), "", "naïve", "東京", "a b"]
    for w in words:
        assert sha1_hash32(w.encode("utf-8")) == datasketch_sha1_hash32(w.encode("utf-8"))
        assert token_hash(w) == datasketch_sha1_hash32(w.encode("utf-8"))


def test_band_keys_equal_for_equal_sets_and_differ_per_band() -> None:
    hasher = MinHasher(128, bands=16, rows=8)
    a = hash_tokens(tokenize("alpha beta gamma delta"))
    b = hash_tokens(tokenize("Delta, gamma, beta, alpha."))
    c = hash_tokens(tokenize("something else entirely here"))
    keys = hasher.band_keys(hasher.signatures([a, b, c]))
    assert keys.shape == (3, 16)
    assert np.array_equal(keys[0], keys[1])
    assert not np.intersect1d(keys[0], keys[2]).size
    assert len(set(keys[0].tolist())) == 16  # same content in two bands still gives two keys


@pytest.mark.parametrize("threshold", [0.5, 0.8, 0.92, 0.97])
@pytest.mark.parametrize("max_miss", [1e-3, 1e-5])
def test_choose_bands_bounds_the_miss_probability_at_the_threshold(
    threshold: float, max_miss: float
) -> None:
    bands, rows = choose_bands(threshold, 128, max_miss)
    assert bands * rows <= 128
    assert miss_probability(threshold, bands, rows) <= max_miss
    # pairs more similar than the threshold are missed even less often
    assert miss_probability(min(1.0, threshold + 0.02), bands, rows) <= max_miss


def test_lsh_nominates_pairs_above_threshold_empirically() -> None:
    """Over many random pairs at J in (0.92, 1], every pair must share a band."""
    rng = random.Random(3)
    hasher = MinHasher(128, *choose_bands(0.92, 128, 1e-5))
    pairs = []
    for _ in range(400):
        base = _random_words(rng, 60)
        drop = rng.randint(0, 4)
        a, b = frozenset(base), frozenset(base[drop:])
        if jaccard(a, b) > 0.92:
            pairs.append((a, b))
    assert len(pairs) > 100
    keys = hasher.band_keys(hasher.signatures([hash_tokens(s) for p in pairs for s in p]))
    shared = [bool(np.any(keys[2 * i] == keys[2 * i + 1])) for i in range(len(pairs))]
    assert all(shared)


@pytest.mark.parametrize("seed", [-1, 2**32])
def test_a_seed_numpy_cannot_draw_from_is_a_settings_error(seed: int) -> None:
    """Refused when the settings load (exit 2 with the field), not when the first batch
    builds the index."""
    from pydantic import ValidationError

    from groundwire.guards.config import DedupConfig

    with pytest.raises(ValidationError, match="seed"):
        DedupConfig(seed=seed)
    assert DedupConfig(seed=2**32 - 1).seed == 2**32 - 1


def test_ordered_tokens_keep_the_first_occurrence_order_of_the_word_set() -> None:
    text = "The cache, the CACHE and Redis: the cache."
    assert ordered_tokens(text) == ("the", "cache", "and", "redis")
    assert frozenset(ordered_tokens(text)) == tokenize(text)
    assert hash_tokens(ordered_tokens(text)).tolist() == [
        token_hash(w) for w in ("the", "cache", "and", "redis")
    ]


def _swapped(claim: str, other: str) -> bool:
    breaks = {",": PIECE_BREAK, ".": SENTENCE_BREAK}
    order = [breaks[w] if w in breaks else token_hash(w) for w in order_breaks(claim)]
    places = {token_hash(w): i for i, w in enumerate(ordered_tokens(other))}
    return bool(order) and reversed_roles(order, places)


@pytest.mark.parametrize(
    ("claim", "other"),
    [
        ("Bob reports to Alice", "Alice reports to Bob"),
        (
            "the staging cluster copies data from the production cluster",
            "the production cluster copies data from the staging cluster",
        ),
        ("Luke invites Joe to Kyiv in January", "Joe invites Luke to Kyiv in January"),
        # a list elsewhere in the text does not hide a swap inside one of its pieces
        ("Bob reports to Alice, Carol and Dan", "Alice reports to Bob, Carol and Dan"),
        # nor across two clauses: each clause's words leave their order
        (
            "Bob approved the budget, and Alice signed the contract",
            "Alice approved the budget, and Bob signed the contract",
        ),
        # two things exchanged across two sentences: no list of one sentence
        (
            "Ann asks Mike to buy milk. Later Mike asks Ann for butter",
            "Ann asks Mike to buy butter. Later Mike asks Ann for milk",
        ),
    ],
)
def test_roles_swapped_round_a_relation_are_reversed(claim: str, other: str) -> None:
    assert _swapped(claim, other) and _swapped(other, claim)


@pytest.mark.parametrize(
    ("claim", "other"),
    [
        ("Alice reports to Bob.", "alice reports to bob"),  # the same order
        ("Bob met Alice", "Alice met Bob"),  # a relation that reads both ways
        ("the cache is Redis", "Redis is the cache"),  # no relation word between them
        ("on Mondays we deploy the API", "we deploy the API on Mondays"),  # a fronted phrase
        ("deploy the API quickly", "deploy API the quickly"),  # neighbours swapped
        # a list's items in another order: each item keeps its words' order
        ("uses Kafka, Redis and Postgres", "uses Postgres, Redis and Kafka"),
        ("uses Kafka, Redis or Postgres", "uses Postgres, Redis or Kafka"),
        (
            "backs the auth gateway, the search API and the billing service",
            "backs the billing service, the search API and the auth gateway",
        ),
    ],
)
def test_a_reordering_that_keeps_the_roles_is_not_reversed(claim: str, other: str) -> None:
    assert not _swapped(claim, other)


def test_names_inside_a_sentence_are_names_and_opening_words_are_apart() -> None:
    """A capital inside a sentence marks a name; one at the start of a sentence (or a
    heading, a list item) marks nothing on its own (docs/dedup.md §Variants)."""
    inside, openers = name_words(
        "Please note: Alice moved the Redis cache to AWS in March. Thanks, Bob! The end."
    )
    assert inside == ["redis", "aws", "march", "bob"]
    # after a colon a text starts again ("Note: Alice ..."); "The" is a function word
    assert openers == ["please", "alice", "thanks"]
    # marks are marks already, function words never names
    assert name_words("We said It was Not 3 Times") == (["times"], [])
    assert claim_words("Hi team, Alice approved it.")[1:] == (["alice"], ["hi"])


@pytest.mark.parametrize(
    ("word", "opposite"),
    [
        ("enabled", "disabled"),
        ("disabled", "enabled"),
        ("dislikes", "likes"),
        ("likes", "dislikes"),
        ("stopped", "started"),
        ("started", "stopped"),
        ("increasing", "decreasing"),
        ("internal", "external"),
        ("accepted", "rejected"),
        ("more", "less"),  # a degree word, not a function word here
    ],
)
def test_antonym_forms_are_inflected_like_the_word(word: str, opposite: str) -> None:
    assert opposite in antonym_forms(word)


@pytest.mark.parametrize("word", ["on", "in", "the", "cache", "deploy", "3", "alice"])
def test_function_words_and_words_without_antonyms_have_none(word: str) -> None:
    assert antonym_forms(word) == ()


def test_an_antonym_the_claim_uses_itself_is_no_replacement() -> None:
    """Both texts say "internal and external": no variant; the memory's "external" where
    the claim says "internal" only: a variant. The opening names come first, without
    forms, and the hashed contrasts say the same as the words."""
    words = ordered_tokens("Dana said the internal and external audits are enabled")
    found = dict(contrasts(words, ["dana"]))
    assert found["dana"] == () and "external" in found["internal"]
    assert "disabled" in found["enabled"]
    hashed = contrast_hashes(words, ["dana"])
    assert hashed == tuple(
        (token_hash(w), tuple(map(token_hash, f))) for w, f in contrasts(words, ["dana"])
    )
    claim = frozenset(map(token_hash, words))
    both = claim - {token_hash("dana")} | {token_hash("bob")}
    assert not _replaced(claim, hashed[1:], both)  # the same words but a name
    external = claim - {token_hash("internal")}
    assert _replaced(claim - {token_hash("external")}, hashed[1:], external)


def test_the_pieces_of_a_list_are_apart_in_the_claims_order() -> None:
    """Commas, "and", "or" and sentence ends separate the pieces a list's items are."""
    assert order_breaks("Uses Postgres, Redis and Kafka. Then Bob left") == [
        *("uses", "postgres", ",", "redis", ",", "kafka", "."),
        *("bob", "left"),
    ]
    assert order_breaks("Alice reports to Bob") == ["alice", "reports", "bob"]


def test_a_negation_has_its_other_spellings() -> None:
    """One negation, written another way: the one-word spellings with the same auxiliary
    and the auxiliary for the two-word one; a "not" after an auxiliary has its one-word
    spellings; "never" has none (docs/dedup.md §Variants)."""
    text = "we can't deploy"
    assert negation_spellings(text, tokenize(text)) == [("can't", ("cannot", "cant"), ("can",))]
    text = "it won't be retired"
    assert negation_spellings(text, tokenize(text)) == [("won't", ("wont",), ("will",))]
    text = "we do not deploy, it is not safe"
    (found,) = negation_spellings(text, tokenize(text))
    assert found[0] == "not" and set(found[1]) == {"don't", "dont", "isn't", "isnt"}
    text = "we never deploy and not on fridays"
    assert negation_spellings(text, tokenize(text)) == []


@pytest.mark.parametrize(
    ("word", "rival"),
    [("minutes", "seconds"), ("gb", "mb"), ("july", "june"), ("friday", "monday"), ("off", "on")],
)
def test_a_unit_month_weekday_or_particle_has_its_rivals_as_forms(word: str, rival: str) -> None:
    assert rival in class_forms(word) and rival in contrast_forms(word)
    assert word not in class_forms(word)


def test_words_in_no_class_have_only_their_antonyms() -> None:
    assert class_forms("may") == () and class_forms("cache") == ()  # "may": a modal
    assert contrast_forms("enabled") == antonym_forms("enabled")
    assert "off" in contrast_forms("on") and antonym_forms("on") == ()


def _in_place(claim: str, memory: str) -> bool:
    breaks = {",": PIECE_BREAK, ".": SENTENCE_BREAK}
    order = [breaks.get(w, token_hash(w)) for w in order_breaks(claim)]
    tokens = [token_hash(w) for w in ordered_tokens(memory)]
    query = frozenset(map(token_hash, tokenize(claim)))
    return replaced_in_place(order, {h: i for i, h in enumerate(tokens)}, tokens, query)


def test_a_word_replaced_before_a_word_both_have_is_in_place() -> None:
    memory = "the checkout API times out under heavy load"
    assert _in_place("the search API times out under heavy load", memory)
    assert not _in_place(memory, memory)
    assert not _in_place("the new checkout API times out under heavy load", memory)  # added
    assert not _in_place("the API times out under heavy load", memory)  # dropped
    # a reworded adverb before "for": the memory's word there is one the claim has
    assert not _in_place(
        "latency improved significantly for users", "latency improved noticeably for users"
    )
    # a break between the two words: no slot of one noun phrase
    assert not _in_place("the search, API times out under heavy load", memory)
