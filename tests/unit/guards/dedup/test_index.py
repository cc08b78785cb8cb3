"""The dedup index in its in-memory home: contract semantics and agreement with brute force."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest

from groundwire.guards.config import DedupConfig
from groundwire.guards.dedup import MinHashDedupIndex, build_dedup_index
from groundwire.guards.dedup.minhash import (
    PIECE_BREAK,
    SENTENCE_BREAK,
    Fingerprint,
    jaccard,
    order_breaks,
    ordered_tokens,
    replaced_in_place,
    token_hash,
    tokenize,
)
from groundwire.guards.dedup.store import Decision, Item
from groundwire.guards.protocols import DedupIndex, DedupRequest
from tests.support.text_edits import random_edit

BASE = "the billing service retries failed card payments three times with exponential backoff"


def _sentence(rng: random.Random, n: int = 16) -> str:
    return " ".join(
        "".join(rng.choices("abcdefghijklmnopqrst", k=rng.randint(3, 9))) for _ in range(n)
    )


@pytest.fixture
def index() -> MinHashDedupIndex:
    return build_dedup_index(DedupConfig())


def test_factory_without_redis_builds_an_in_memory_dedup_index(index: MinHashDedupIndex) -> None:
    assert isinstance(index, DedupIndex)
    assert index.bands[0] * index.bands[1] <= DedupConfig().num_perm


async def test_near_duplicates_in_one_batch_cannot_both_pass(index: MinHashDedupIndex) -> None:
    t = "acme"
    res = await index.check_and_insert(
        [DedupRequest(t, "c1", BASE), DedupRequest(t, "c2", BASE.upper() + ".")]
    )
    assert [r.is_duplicate for r in res] == [False, True]
    assert res[1].duplicate_of == "c1"
    assert res[1].similarity == 1.0


async def test_similarity_is_exact_word_jaccard_and_threshold_is_strict() -> None:
    rng = random.Random(11)
    for _ in range(30):
        index = build_dedup_index(DedupConfig())
        text = _sentence(rng, rng.randint(10, 30))
        edited = random_edit(rng, text, rng.randint(0, 3))
        res = await index.check_and_insert(
            [DedupRequest("t", "a", text), DedupRequest("t", "b", edited)]
        )
        true_j = jaccard(tokenize(text), tokenize(edited))
        # above the threshold: a duplicate, or a variant when a word was replaced in
        # place (docs/dedup.md §Variants); the similarity is the exact Jaccard either way
        assert (res[1].is_duplicate or res[1].variant_of is not None) == (true_j > 0.92)
        if res[1].is_duplicate:
            assert res[1].similarity == true_j
        elif res[1].variant_of is not None:
            assert res[1].variant_similarity == true_j


async def test_threshold_boundary_equal_is_not_a_duplicate() -> None:
    # 23 shared words of 25 in the union: J = 0.92 exactly, which does not EXCEED 0.92
    words = [f"w{i}" for i in range(25)]
    index = build_dedup_index(DedupConfig())
    res = await index.check_and_insert(
        [DedupRequest("t", "a", " ".join(words[:24])), DedupRequest("t", "b", " ".join(words[1:]))]
    )
    assert jaccard(frozenset(words[:24]), frozenset(words[1:])) == pytest.approx(23 / 25)
    assert not res[1].is_duplicate


async def test_replay_of_an_indexed_claim_is_unique_not_a_duplicate_of_itself(
    index: MinHashDedupIndex,
) -> None:
    first = await index.check_and_insert([DedupRequest("t", "c1", BASE)])
    again = await index.check_and_insert([DedupRequest("t", "c1", BASE)])
    dup = await index.check_and_insert([DedupRequest("t", "c2", BASE)])
    assert not first[0].is_duplicate and not again[0].is_duplicate
    assert dup[0].duplicate_of == "c1"


async def test_insert_false_checks_without_indexing(index: MinHashDedupIndex) -> None:
    look = await index.check_and_insert([DedupRequest("t", "c1", BASE, insert=False)])
    later = await index.check_and_insert([DedupRequest("t", "c2", BASE)])
    assert not look[0].is_duplicate
    assert not later[0].is_duplicate  # c1 never entered the index
    dup = await index.check_and_insert([DedupRequest("t", "c3", BASE, insert=False)])
    assert dup[0].duplicate_of == "c2"


async def test_tenants_never_match_each_other(index: MinHashDedupIndex) -> None:
    res = await index.check_and_insert(
        [
            DedupRequest("t1", "c1", BASE),
            DedupRequest("t2", "c1", BASE),
            DedupRequest("t2", "c2", BASE),
        ]
    )
    assert [r.is_duplicate for r in res] == [False, False, True]
    assert res[2].duplicate_of == "c1"


async def test_remove_lets_the_text_back_in_and_reports_absence(index: MinHashDedupIndex) -> None:
    await index.check_and_insert([DedupRequest("t", "c1", BASE)])
    assert await index.remove("t", "c1") is True
    assert await index.remove("t", "c1") is False
    assert await index.remove("other", "c1") is False
    res = await index.check_and_insert([DedupRequest("t", "c2", BASE)])
    assert not res[0].is_duplicate
    assert index.store.size("t") == 1  # type: ignore[attr-defined]


async def test_most_similar_memory_is_reported_not_the_first_found() -> None:
    words = [f"w{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(40)]  # no digits
    older = words[2:]  # J(query, older) = 38/40 = 0.950
    newer = [*words[:39], "extra"]  # J(query, newer) = 39/41 = 0.951; J(older, newer) = 0.90
    index = build_dedup_index(DedupConfig())
    res = await index.check_and_insert(
        [DedupRequest("t", "older", " ".join(older)), DedupRequest("t", "newer", " ".join(newer))]
    )
    assert not any(r.is_duplicate for r in res)
    res = await index.check_and_insert([DedupRequest("t", "q", " ".join(words), insert=False)])
    assert res[0].duplicate_of == "newer"
    assert res[0].similarity == pytest.approx(39 / 41)


async def test_oversized_and_invalid_requests_fail_closed_without_raising() -> None:
    index = build_dedup_index(DedupConfig(max_tokens=5))
    res = await index.check_and_insert(
        [
            DedupRequest("t", "big", "one two three four five six"),
            DedupRequest("t", "", "fine"),
            DedupRequest("t", "ok", "one two three"),
        ]
    )
    assert res[0].failed and res[0].error.startswith("dedup check failed")
    assert res[1].failed
    assert not res[2].failed and not res[2].is_duplicate


class _BrokenStore:
    """A store whose backend is down: the index must turn this into failed results."""

    async def apply(
        self,
        groups: dict[str, list[Item]],
        threshold: float,
        *,
        now_ms: int,
        pending_until_ms: int,
    ) -> dict[str, list[Decision] | Exception]:
        raise ConnectionError("backend down")

    async def fetch_tokens(
        self, tenant_id: str, claim_id: str
    ) -> tuple[str, np.ndarray, int] | None:
        raise ConnectionError("backend down")

    async def promote(
        self, tenant_id: str, claim_id: str, threshold: float, *, now_ms: int
    ) -> Decision:
        raise ConnectionError("backend down")

    async def discard(self, tenant_id: str, claim_id: str) -> bool:
        raise ConnectionError("backend down")

    async def delete(
        self, tenant_id: str, claim_id: str, handle: str, fingerprint: Fingerprint
    ) -> bool:
        raise ConnectionError("backend down")

    async def aclose(self) -> None:
        return None


async def test_store_failure_gives_failed_results_never_unique() -> None:
    from groundwire.guards.dedup import DedupStoreError

    index = MinHashDedupIndex(DedupConfig(), _BrokenStore(), batch_timeout_s=1.0)
    res = await index.check_and_insert([DedupRequest("t", "a", BASE), DedupRequest("u", "b", BASE)])
    assert all(r.failed and not r.is_duplicate for r in res)
    assert all(r.error and r.error.startswith("dedup check failed: ConnectionError") for r in res)
    with pytest.raises(DedupStoreError):
        await index.remove("t", "a")
    with pytest.raises(DedupStoreError):
        await index.promote("t", "a", BASE)


def _brute_force(batch: Sequence[DedupRequest], threshold: float) -> list[str | None]:
    """Sequential exact scan: the reference the index must reproduce. The synthetic
    words have no marks, names or antonyms; a word replaced in place before a word both
    have makes a variant (`replaced_in_place`), neither a duplicate nor a memory."""
    memories: dict[str, list[tuple[str, frozenset[str], tuple[int, ...]]]] = {}
    out: list[str | None] = []
    for req in batch:
        toks = tokenize(req.text)
        breaks = {",": PIECE_BREAK, ".": SENTENCE_BREAK}
        order = tuple(breaks.get(w, token_hash(w)) for w in order_breaks(req.text))
        query = frozenset(map(token_hash, toks))
        best: tuple[float, int, str] | None = None
        variant = False
        for pos, (cid, mem, ordered) in enumerate(memories.get(req.tenant_id, [])):
            j = jaccard(toks, mem)
            if j <= threshold:
                continue
            places = {h: i for i, h in enumerate(ordered)}
            if replaced_in_place(order, places, ordered, query):
                variant = True
            elif best is None or j > best[0]:
                best = (j, pos, cid)
        out.append(best[2] if best else None)
        if best is None and not variant and toks and req.insert:
            ordered = tuple(map(token_hash, ordered_tokens(req.text)))
            memories.setdefault(req.tenant_id, []).append((req.claim_id, toks, ordered))
    return out


async def test_index_decisions_equal_brute_force_on_synthetic_edits() -> None:
    rng = random.Random(2024)
    originals = [_sentence(rng, rng.randint(8, 40)) for _ in range(150)]
    batch: list[DedupRequest] = []
    for i, text in enumerate(originals):
        batch.append(DedupRequest(rng.choice("ab"), f"o{i}", text, insert=rng.random() < 0.9))
        for k in range(rng.randint(0, 3)):
            edited = random_edit(rng, text, rng.randint(0, 3))
            batch.append(DedupRequest(batch[-1].tenant_id, f"e{i}.{k}", edited))
    rng.shuffle(batch)
    index = build_dedup_index(DedupConfig())
    got: list[str | None] = []
    for start in range(0, len(batch), 37):
        got += [r.duplicate_of for r in await index.check_and_insert(batch[start : start + 37])]
    expected = _brute_force(batch, 0.92)
    assert sum(e is not None for e in expected) > 50
    assert got == expected
