"""Session 17, second round (screen-stage CPU, issue 15 point 2): each cut that changes
how a rule computes its answer is held to the code it replaced, kept here verbatim as the
reference, on crafted texts and on random ones (both sides of every cheap test the cut
adds)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence, Set

import pytest

from groundwire.guards.grounding.lexical.derived_opposites import (
    _LEMMA_WORDS,
    _stripped,
    may_have_derived,
    source_stripped,
)
from groundwire.guards.grounding.lexical.evidence import Sentence, evidence_for
from groundwire.guards.grounding.lexical.found_order import (
    _NONE,
    FOUND_SHARE,
    MAX_SENTENCE_PAIRS,
    _sentences,
    swapped_arguments_of_found,
)
from groundwire.guards.grounding.lexical.privatives import privative_flips
from groundwire.guards.grounding.lexical.roles import MAX_STEPS, swapped_arguments
from groundwire.guards.grounding.lexical.text import ClaimWords, claim_words
from groundwire.topics.records import SourceTurn

# --- found_order: no source sentence holding three claim stems reads no order ------------


def _old_swapped_arguments_of_found(
    words: ClaimWords,
    text: str,
    content: Sequence[bool],
    sentences: Sequence[Sentence],
    shared: Sequence[Set[str]],
    source_stems: Set[str],
) -> list[tuple[str, str]]:
    """`found_order.swapped_arguments_of_found` at 90270a4 (every claim sentence read)."""
    stems = words.stems
    out: list[tuple[str, str]] = []
    pairs = MAX_SENTENCE_PAIRS
    steps = [MAX_STEPS]
    for part in _sentences(words, text):
        mine = {stems[i] for i in part if content[i]}
        own = mine & source_stems
        if len(own) < 3 or len(own) < FOUND_SHARE * len(mine):
            continue
        pairs -= len(shared)
        if pairs < 0 or steps[0] <= 0:
            break
        holding = [own if own <= hit else _NONE for hit in shared]
        if not any(holding):
            continue
        whole = [False] * len(stems)
        whole[part.start : part.stop] = content[part.start : part.stop]
        for pair in swapped_arguments(words, whole, sentences, holding, own, steps):
            if pair not in out:
                out.append(pair)
    return out


def _found_inputs(
    claim: str, source: str
) -> tuple[ClaimWords, str, Sequence[bool], Sequence[Sentence], list[set[str]], Set[str]]:
    """The arguments `features.analyze` hands the rule (its `shared`: the claim's content
    stems each source sentence holds)."""
    words = claim_words(claim)
    ev = evidence_for([SourceTurn(id="t1", text=source or ".", source="user")])
    mine = {st for st, c in zip(words.stems, words.content, strict=True) if c}
    shared = [mine & s.stems for s in ev.sentences]
    return words, claim, words.content, ev.sentences, shared, ev.stems


_FOUND_CASES = [
    (
        "Wow, nice. The billing service calls the auth service.",
        "The auth service calls the billing service.",
    ),
    ("The auth service calls billing. Cool!", "Billing calls the auth service every hour."),
    ("Ana hired Ben. Great news really.", "Ben hired Ana last year."),
    ("Ana hired Ben.", "Ana was here. Ben was there."),
    (
        "The White House is larger than the guest house. Neat.",
        "The guest house is larger than the White House.",
    ),
    ("", "Anything at all."),
    ("One two. Three four five.", ""),
]


@pytest.mark.parametrize(("claim", "source"), _FOUND_CASES)
def test_found_order_as_before_on_crafted_texts(claim: str, source: str) -> None:
    args = _found_inputs(claim, source)
    assert swapped_arguments_of_found(*args) == _old_swapped_arguments_of_found(*args)


def test_found_order_the_gate_keeps_a_swap() -> None:
    # a source sentence holding three claim stems: read, and the swap found
    args = _found_inputs(
        "Wow, nice. The billing service calls the auth service.",
        "The auth service calls the billing service.",
    )
    assert max(map(len, args[4])) >= 3
    assert swapped_arguments_of_found(*args)
    # none holding three: nothing read
    args = _found_inputs("Ana hired Ben. Great news really.", "Ana was here. Ben was there.")
    assert max(map(len, args[4])) < 3
    assert swapped_arguments_of_found(*args) == []


_VOCAB = (
    "ana",
    "ben",
    "the",
    "auth",
    "billing",
    "service",
    "calls",
    "hired",
    "larger",
    "than",
    "house",
    "guest",
    "was",
    "is",
    "by",
    "and",
    "wow",
    "nice",
    "really",
    "great",
    "team",
)


def test_found_order_as_before_on_random_texts() -> None:
    rng = random.Random(1717)
    gated = read = found = 0
    for _ in range(3_000):
        claim = ". ".join(
            " ".join(rng.choice(_VOCAB) for _ in range(rng.randint(1, 7)))
            for _ in range(rng.randint(1, 3))
        )
        source = ". ".join(
            " ".join(rng.choice(_VOCAB) for _ in range(rng.randint(1, 8)))
            for _ in range(rng.randint(1, 3))
        )
        args = _found_inputs(claim, source)
        new = swapped_arguments_of_found(*args)
        assert new == _old_swapped_arguments_of_found(*args), (claim, source)
        if max(map(len, args[4]), default=0) < 3:
            gated += 1
        else:
            read += 1
        found += bool(new)
    assert gated > 300 and read > 200 and found >= 5, (gated, read, found)


# --- derived_opposites: the source's prefixed words stripped once per evidence -----------


def test_source_stripped_is_kept_per_evidence() -> None:
    ev = evidence_for(
        [SourceTurn(id="t1", text="The page is unreadable. We disliked it.", source="user")]
    )
    other = evidence_for([SourceTurn(id="t2", text="The page is readable.", source="user")])
    got = source_stripped(ev)
    assert got == _stripped(ev.lows)
    assert {"readable", "liked"} <= got
    assert source_stripped(ev) is got  # read once, kept with the evidence
    assert source_stripped(other) == _stripped(other.lows)
    assert "readable" not in source_stripped(other)


_PREFIX_VOCAB = (
    "readable",
    "unreadable",
    "liked",
    "disliked",
    "able",
    "unable",
    "happy",
    "unhappy",
    "known",
    "unknown",
    "agree",
    "disagree",
    "the",
    "page",
    "is",
    "was",
    "cache",
    "team",
    "nonblocking",
    "blocking",
    "misread",
    "read",
)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        ("The page is readable.", "The page is unreadable."),
        ("The page is unreadable.", "The page is readable."),
        ("We liked it.", "We disliked it."),
        ("The cache is warm.", "The team is happy."),
        ("", "The page is unreadable."),
        ("The page is readable.", ""),
    ],
)
def test_may_have_derived_with_the_kept_source_as_before_on_crafted_texts(
    claim: str, source: str
) -> None:
    words = claim_words(claim)
    ev = evidence_for([SourceTurn(id="t1", text=source or ".", source="user")])
    content = words.content
    assert may_have_derived(words.lows, content, ev.lows, source_stripped(ev)) == may_have_derived(
        words.lows, content, ev.lows
    )


def test_may_have_derived_with_the_kept_source_as_before_on_random_words() -> None:
    rng = random.Random(1718)
    by_stripped = answered = 0
    for _ in range(4_000):
        lows = [rng.choice(_PREFIX_VOCAB) for _ in range(rng.randint(0, 8))]
        content = [rng.random() < 0.7 for _ in lows]
        source = {rng.choice(_PREFIX_VOCAB) for _ in range(rng.randint(0, 40))}
        stripped = _stripped(source)
        new = may_have_derived(lows, content, source, stripped)
        assert new == may_have_derived(lows, content, source), (lows, content, source)
        words = list(itertools.compress(lows, content))
        by_stripped += _LEMMA_WORDS.isdisjoint(words) and not stripped.isdisjoint(words)
        answered += new
    assert by_stripped > 300 and answered < 4_000, (by_stripped, answered)


# --- privatives: the claim's own "far from" looked for only when it writes "far" --------


def _flips(claim: str, source: str) -> list[tuple[str, str]]:
    words = claim_words(claim)
    ev = evidence_for([SourceTurn(id="t1", text=source, source="user")])
    return privative_flips(words.lows, words.stems, words.content, ev.sentences)


def test_privative_flips_both_sides_of_the_far_test() -> None:
    # no "far" in the claim: read, and the flip found
    assert _flips("The bug is fixed.", "The bug is far from fixed.")
    assert _flips("The service supports IPv6.", "The service lacks IPv6 support.")
    # the claim's own "far from": nothing read, as before
    assert _flips("The bug is far from fixed.", "The bug is far from fixed.") == []
    # "far" without "from" after it: read as before
    assert _flips("The bug is fixed so far.", "The bug is far from fixed.")
