"""Session 17, third round (screen-stage CPU, issue 15 point 2): each cut is held to the
code it replaced, kept here verbatim as the reference, on crafted texts and on random
ones, with one source read against many claims (the kept readings are reused)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from groundwire.guards.grounding.lexical.evidence import Evidence, Sentence, evidence_for
from groundwire.guards.grounding.lexical.roles import (
    MAX_STEPS,
    _content_ends,
    _pairs_cost,
    _reversed_pairs,
    _swapped_pair,
    swapped_arguments,
)
from groundwire.guards.grounding.lexical.text import ClaimWords, claim_words
from groundwire.topics.records import SourceTurn

# --- roles.swapped_arguments: each sentence's first/last places kept on the sentence ----


def _old_swapped_arguments(
    words: ClaimWords,
    content: Sequence[bool],
    sentences: Sequence[Sentence],
    shared: Sequence[set[str] | frozenset[str]],
    uniq: set[str] | frozenset[str],
    budget: list[int] | None = None,
) -> list[tuple[str, str]]:
    """`roles.swapped_arguments` at de86a0a (the maps built per call)."""
    stems = words.stems
    out: list[tuple[str, str]] = []
    positions = [i for i, c in enumerate(content) if c and words.numbers[i] is None]
    left = [MAX_STEPS] if budget is None else budget
    cost: int | None = None
    for s, hit in zip(sentences, shared, strict=True):
        if len(hit) < len(uniq):
            continue
        if left[0] <= 0:
            return out
        left[0] -= len(s.word_stems)
        first: dict[str, int] = {}
        last: dict[str, int] = {}
        for j, st in enumerate(s.word_stems):
            if s.content[j]:
                first.setdefault(st, j)
                last[st] = j
        if cost is None:
            cost = _pairs_cost(positions)
        if left[0] >= cost:
            left[0] -= cost
            for i1, i2 in _reversed_pairs(positions, stems, first, last):
                pair = _swapped_pair(words, content, s, first[stems[i1]], last[stems[i2]], i1, i2)
                if pair is not None and pair not in out:
                    out.append(pair)
            continue
        for a, i1 in enumerate(positions):
            for i2 in positions[a + 2 :]:
                if left[0] <= 0:
                    return out
                left[0] -= 1 + i2 - i1
                j1, j2 = first.get(stems[i1]), last.get(stems[i2])
                if j1 is None or j2 is None or stems[i1] == stems[i2] or j2 >= j1:
                    continue
                pair = _swapped_pair(words, content, s, j1, j2, i1, i2)
                if pair is not None and pair not in out:
                    out.append(pair)
    return out


def _evidence(source: str) -> Evidence:
    return evidence_for([SourceTurn(id="t1", text=source or ".", source="user")])


def _args(
    claim: str, ev: Evidence
) -> tuple[ClaimWords, Sequence[bool], Sequence[Sentence], list[set[str]], set[str]]:
    """The whole-claim reading's arguments (`features.analyze`): the claim's content
    stems each source sentence holds, and all of them."""
    words = claim_words(claim)
    uniq = {st for st, c in zip(words.stems, words.content, strict=True) if c}
    shared = [uniq & s.stems for s in ev.sentences]
    return words, words.content, ev.sentences, shared, uniq


def _both(
    claim: str, ev: Evidence, budget: int | None = None
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """New and old answers on the same inputs; with `budget`, the steps left must agree."""
    args = _args(claim, ev)
    if budget is None:
        return swapped_arguments(*args), _old_swapped_arguments(*args)
    b_new, b_old = [budget], [budget]
    new = swapped_arguments(*args, b_new)
    old = _old_swapped_arguments(*args, b_old)
    assert b_new == b_old, (claim, b_new, b_old)
    return new, old


_CASES = [
    ("The billing service calls the auth service.", "The auth service calls the billing service."),
    ("The auth service calls the billing service.", "The auth service calls the billing service."),
    ("Ana hired Ben.", "Ben hired Ana. Ana hired Ben later."),
    ("Ana hired Ben.", "Ben, Ana and Ben hired Ana."),
    (
        "The guest house is larger than the White House.",
        "The White House is larger than the guest house.",
    ),
    ("Ben was hired by Ana.", "Ana hired Ben."),
    ("In 2024 Ana hired Ben.", "Ben hired Ana in 2024."),
    ("", "Anything at all."),
    ("One two three.", ""),
]


@pytest.mark.parametrize(("claim", "source"), _CASES)
def test_swapped_arguments_as_before_on_crafted_texts(claim: str, source: str) -> None:
    ev = _evidence(source)
    for _ in range(2):  # the second reads the kept maps
        new, old = _both(claim, ev)
        assert new == old
    for budget in (0, 1, 5, 12, 40):  # both budget paths, the same steps left
        new, old = _both(claim, ev, budget)
        assert new == old


def test_swapped_arguments_finds_the_swap_from_the_kept_maps() -> None:
    ev = _evidence("The auth service calls the billing service.")
    claim = "The billing service calls the auth service."
    first = swapped_arguments(*_args(claim, ev))
    assert first
    kept = ev.sentences[0]._ends
    assert kept is not None
    assert swapped_arguments(*_args(claim, ev)) == first
    assert ev.sentences[0]._ends is kept  # read once, not again
    # the same order as the source's: nothing, from the same kept maps
    assert swapped_arguments(*_args("The auth service calls the billing service.", ev)) == []
    assert ev.sentences[0]._ends is kept


def test_content_ends_are_the_sentence_own() -> None:
    ev = _evidence("Ana met Ben and Ana hired Ben, the team's lead. The team grew.")
    for s in ev.sentences:
        first, last = _content_ends(s)
        stems = [st for st, c in zip(s.word_stems, s.content, strict=True) if c]
        assert set(first) == set(last) == set(stems)
        for st in stems:
            places = [j for j, w in enumerate(s.word_stems) if w == st and s.content[j]]
            assert (first[st], last[st]) == (places[0], places[-1])


_VOCAB = (
    "ana", "ben", "the", "auth", "billing", "service", "calls", "hired", "larger",
    "than", "house", "guest", "was", "is", "by", "and", "team", "lead", "met",
    "2024", "of", "Maria", "Tom", "manager",
)  # fmt: skip


def _text(rng: random.Random, most: int) -> str:
    return ". ".join(
        " ".join(rng.choice(_VOCAB) for _ in range(rng.randint(1, most)))
        for _ in range(rng.randint(1, 3))
    )


def test_swapped_arguments_as_before_on_random_texts() -> None:
    rng = random.Random(1719)
    read = found = limited = 0
    for _ in range(600):
        ev = _evidence(_text(rng, 9))
        for _ in range(6):  # one source, many claims: the maps kept from the first
            # a claim made of a source sentence's words, shuffled, holds it whole
            s = rng.choice(ev.sentences)
            pool = list(s.raws) or ["the"]
            rng.shuffle(pool)
            claim = (
                " ".join(pool[: rng.randint(2, len(pool) + 1)])
                if rng.random() < 0.7
                else _text(rng, 6)
            )
            budget = rng.choice((None, None, rng.randint(0, 60)))
            new, old = _both(claim, ev, budget)
            assert new == old, (claim, [x.raws for x in ev.sentences], budget)
            read += any(x._ends is not None for x in ev.sentences)
            found += bool(new)
            limited += budget is not None
    assert read > 1_000 and found >= 50 and limited > 300, (read, found, limited)
