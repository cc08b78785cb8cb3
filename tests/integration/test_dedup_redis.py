"""The dedup index in Redis (the shared server): atomicity, races, tenants, remove, parity."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import redis.asyncio as aioredis

from groundwire.guards.config import DedupConfig
from groundwire.guards.dedup import MinHashDedupIndex, build_dedup_index
from groundwire.guards.dedup.minhash import jaccard, token_hash, tokenize
from groundwire.guards.protocols import DedupRequest
from tests.support.names import RUN
from tests.support.redis_server import delete_prefix
from tests.support.text_edits import random_edit
from tests.unit.guards.dedup import test_pending as pending

pytestmark = pytest.mark.integration

BASE = "the billing service retries failed card payments three times with exponential backoff"


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(
        "".join(rng.choices("abcdefghijklmnopqrst", k=rng.randint(3, 9))) for _ in range(n)
    )


@pytest.fixture
def cfg() -> DedupConfig:
    # a prefix of its own per test: other engineers share this Redis
    return DedupConfig(redis_prefix=f"{RUN}:dedup:{uuid.uuid4().hex[:8]}")


@pytest.fixture
async def index(cfg: DedupConfig, redis_url: str) -> AsyncIterator[MinHashDedupIndex]:
    idx = build_dedup_index(cfg, redis_url)
    yield idx
    await idx.aclose()


@pytest.fixture
async def raw(redis_url: str, cfg: DedupConfig) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(redis_url)
    yield client
    await delete_prefix(client, cfg.redis_prefix)
    await client.aclose()


async def _tenant_keys(raw: aioredis.Redis, cfg: DedupConfig, tenant: str) -> list[bytes]:
    return [k async for k in raw.scan_iter(match=f"{cfg.redis_prefix}:{{{tenant}}}:*", count=1000)]


async def test_keys_carry_the_tenant_hash_tag(
    index: MinHashDedupIndex, raw: aioredis.Redis, cfg: DedupConfig, unique_tenant: str
) -> None:
    await index.check_and_insert([DedupRequest(unique_tenant, "c1", BASE)])
    keys = await _tenant_keys(raw, cfg, unique_tenant)
    assert len(keys) >= 4
    assert all(f"{{{unique_tenant}}}".encode() in k for k in keys)


async def test_near_duplicates_in_one_batch_cannot_both_pass(
    index: MinHashDedupIndex, raw: aioredis.Redis, unique_tenant: str
) -> None:
    res = await index.check_and_insert(
        [
            DedupRequest(unique_tenant, "c1", BASE),
            DedupRequest(unique_tenant, "c2", BASE + " today"),
        ]
    )
    assert [r.is_duplicate for r in res] == [False, True]
    assert res[1].duplicate_of == "c1"
    assert res[1].similarity == jaccard(tokenize(BASE), tokenize(BASE + " today"))


async def test_two_clients_racing_cannot_both_insert_near_duplicates(
    cfg: DedupConfig, redis_url: str, raw: aioredis.Redis
) -> None:
    """Two index objects (two connection pools, as two workers) submit near-duplicates at once."""
    rng = random.Random(99)
    a, b = build_dedup_index(cfg, redis_url), build_dedup_index(cfg, redis_url)
    try:
        for round_ in range(40):
            tenant = f"race-{uuid.uuid4().hex[:8]}"
            text = _sentence(rng, 30)
            other = text + " " + "".join(rng.choices("xyz", k=6))  # J = 30/31
            ra, rb = await asyncio.gather(
                a.check_and_insert([DedupRequest(tenant, f"a{round_}", text)]),
                b.check_and_insert([DedupRequest(tenant, f"b{round_}", other)]),
            )
            passed = [not r[0].is_duplicate for r in (ra, rb)]
            assert passed.count(True) == 1, (ra, rb)
            assert not ra[0].failed and not rb[0].failed
    finally:
        await a.aclose()
        await b.aclose()


async def test_a_claim_never_matches_another_tenants_memory(
    index: MinHashDedupIndex, raw: aioredis.Redis
) -> None:
    t1, t2 = f"t1-{uuid.uuid4().hex[:8]}", f"t2-{uuid.uuid4().hex[:8]}"
    first = await index.check_and_insert([DedupRequest(t1, "m1", BASE)])
    other = await index.check_and_insert([DedupRequest(t2, "m2", BASE)])
    mixed = await index.check_and_insert(
        [DedupRequest(t1, "m3", BASE), DedupRequest(t2, "m4", BASE)]
    )
    assert not first[0].is_duplicate and not other[0].is_duplicate
    assert [r.duplicate_of for r in mixed] == ["m1", "m2"]


async def test_replay_and_insert_false(
    index: MinHashDedupIndex, raw: aioredis.Redis, unique_tenant: str
) -> None:
    t = unique_tenant
    assert not (await index.check_and_insert([DedupRequest(t, "x", BASE, insert=False)]))[
        0
    ].is_duplicate
    assert not (await index.check_and_insert([DedupRequest(t, "c1", BASE)]))[0].is_duplicate
    again = await index.check_and_insert([DedupRequest(t, "c1", BASE), DedupRequest(t, "c1", BASE)])
    assert [r.is_duplicate for r in again] == [False, False]
    assert (await index.check_and_insert([DedupRequest(t, "x", BASE, insert=False)]))[
        0
    ].duplicate_of == "c1"


async def test_remove_deletes_band_entries_and_stored_tokens(
    index: MinHashDedupIndex, raw: aioredis.Redis, cfg: DedupConfig, unique_tenant: str
) -> None:
    t = unique_tenant
    rng = random.Random(1)
    texts = [_sentence(rng, 20) for _ in range(30)]
    await index.check_and_insert([DedupRequest(t, f"c{i}", s) for i, s in enumerate(texts)])
    prefix = f"{cfg.redis_prefix}:{{{t}}}:"
    assert await raw.hlen(prefix + "i") == 30
    for i in range(30):
        assert await index.remove(t, f"c{i}") is True
    assert await index.remove(t, "c0") is False
    assert await raw.hlen(prefix + "i") == 0
    assert await raw.hlen(prefix + "r") == 0
    shards = [k for k in await _tenant_keys(raw, cfg, t) if k.startswith((prefix + "b:").encode())]
    assert shards == []  # empty hashes vanish: no band entry is left behind
    res = await index.check_and_insert([DedupRequest(t, "again", texts[0])])
    assert not res[0].is_duplicate


async def test_shards_split_and_stay_compact_while_answers_stay_right(
    redis_url: str, raw: aioredis.Redis, cfg: DedupConfig, unique_tenant: str
) -> None:
    small = cfg.model_copy(update={"redis_shard_load": 8})
    index = build_dedup_index(small, redis_url)
    t = unique_tenant
    rng = random.Random(8)
    texts = [_sentence(rng, 25) for _ in range(300)]
    try:
        for start in range(0, 300, 50):
            chunk = texts[start : start + 50]
            res = await index.check_and_insert(
                [DedupRequest(t, f"c{start + i}", s) for i, s in enumerate(chunk)]
            )
            assert not any(r.is_duplicate or r.failed for r in res)
        meta = await raw.hgetall(f"{cfg.redis_prefix}:{{{t}}}:m")
        assert int(meta[b"level"]) >= 5  # 300 memories * 16 bands / 8 per shard -> ~600 shards
        shard_keys = [k for k in await _tenant_keys(raw, cfg, t) if b"}:b:" in k]
        assert len(shard_keys) > 300
        encodings = {await raw.object("encoding", k) for k in shard_keys}
        assert encodings == {b"listpack"}
        probes = [DedupRequest(t, f"p{i}", s + " zzz", insert=False) for i, s in enumerate(texts)]
        found = await index.check_and_insert(probes)
        assert [r.duplicate_of for r in found] == [f"c{i}" for i in range(300)]
    finally:
        await index.aclose()


async def test_memory_and_redis_homes_give_identical_answers(
    index: MinHashDedupIndex, raw: aioredis.Redis
) -> None:
    rng = random.Random(4242)
    tenants = [f"par-{uuid.uuid4().hex[:6]}" for _ in range(3)]
    batch: list[DedupRequest] = []
    for i in range(200):
        text = _sentence(rng, rng.randint(6, 35))
        tenant = rng.choice(tenants)
        batch.append(DedupRequest(tenant, f"o{i}", text, insert=rng.random() < 0.85))
        for k in range(rng.randint(0, 3)):
            batch.append(
                DedupRequest(
                    rng.choice([tenant, *tenants]),
                    f"e{i}.{k}",
                    random_edit(rng, text, rng.randint(0, 3)),
                )
            )
    rng.shuffle(batch)
    memory = build_dedup_index(DedupConfig())
    removals = rng.sample([r for r in batch if r.insert], 20)
    got_mem, got_redis = [], []
    for start in range(0, len(batch), 64):
        chunk = batch[start : start + 64]
        got_mem += await memory.check_and_insert(chunk)
        got_redis += await index.check_and_insert(chunk)
        for req in removals[start // 64 :: 20][:2]:
            assert await memory.remove(req.tenant_id, req.claim_id) == await index.remove(
                req.tenant_id, req.claim_id
            )
    assert sum(r.is_duplicate for r in got_mem) > 50
    assert not any(r.failed for r in got_redis)
    assert got_mem == got_redis


# -- pending review, retention and scopes: the unit scenarios, in Redis ---------------------


@pytest.mark.parametrize("scenario", pending.SCENARIOS, ids=lambda s: s.__name__)
async def test_pending_scenarios_in_redis(
    scenario: Callable[[pending.Build, DedupConfig], Awaitable[None]],
    cfg: DedupConfig,
    redis_url: str,
    raw: aioredis.Redis,
) -> None:
    def redis_home(c: DedupConfig, clock: pending.Clock) -> MinHashDedupIndex:
        return build_dedup_index(c, redis_url, clock=clock)

    await scenario(redis_home, cfg)


async def test_pending_keys_share_the_tenant_slot_and_expire(
    cfg: DedupConfig, redis_url: str, raw: aioredis.Redis, unique_tenant: str
) -> None:
    clock = pending.Clock()
    index = build_dedup_index(
        cfg.model_copy(update={"pending_retention_s": 60}), redis_url, clock=clock
    )
    texts = [_sentence(random.Random(i), 12) for i in range(100)]
    await index.check_and_insert(
        [pending.review(unique_tenant, f"r{i}", t) for i, t in enumerate(texts)]
    )
    keys = {k.decode() for k in await _tenant_keys(raw, cfg, unique_tenant)}
    base = f"{cfg.redis_prefix}:{{{unique_tenant}}}:"
    assert {base + "pi", base + "pr", base + "px"} <= keys
    assert await raw.zcard(base + "px") == 100
    clock.now += 61
    # each call purges at most 64 expired entries; expired ones never match meanwhile
    (probe,) = await index.check_and_insert(
        [DedupRequest(unique_tenant, "p", texts[-1], insert=False)]
    )
    assert probe.pending_of is None
    assert await raw.zcard(base + "px") == 36
    await index.check_and_insert([DedupRequest(unique_tenant, "q", "x y z", insert=False)])
    assert await raw.zcard(base + "px") == 0
    assert await raw.hlen(base + "pi") == 0 and await raw.hlen(base + "pr") == 0
    shards = [k for k in await _tenant_keys(raw, cfg, unique_tenant) if b":b:" in k]
    assert shards == []  # no band posting left behind
    assert int(await raw.hget(base + "m", "entries") or 0) == 0
    await index.aclose()


async def test_pending_steps_give_identical_answers_in_both_homes(
    cfg: DedupConfig, redis_url: str, raw: aioredis.Redis
) -> None:
    rng = random.Random(91)
    tenants = [f"pp-{uuid.uuid4().hex[:6]}" for _ in range(2)]
    steps = pending.random_steps(rng, 500, tenants)
    c = cfg.model_copy(update={"pending_retention_s": 12 * 3_600.0})
    mem_clock, redis_clock = pending.Clock(), pending.Clock()
    got_mem = await pending.run_steps(build_dedup_index(c, clock=mem_clock), mem_clock, steps)
    in_redis = build_dedup_index(c, redis_url, clock=redis_clock)
    got_redis = await pending.run_steps(in_redis, redis_clock, steps)
    await in_redis.aclose()
    assert got_mem == got_redis == pending.brute_force(steps, c.threshold, c.pending_retention_s)


async def test_records_keep_their_words_order_and_older_records_are_not_read_for_it(
    index: MinHashDedupIndex, raw: aioredis.Redis, cfg: DedupConfig, unique_tenant: str
) -> None:
    """A record's token hashes follow its text (header bit 0x4000), so a role swap is a
    variant (docs/dedup.md §Variants); a record written before that (no bit, hashes in any
    order) is compared as a word set only, as before."""
    t = unique_tenant
    await index.check_and_insert([DedupRequest(t, "m", "alice reports to bob")])
    prefix = f"{cfg.redis_prefix}:{{{t}}}:"
    sid = await raw.hget(prefix + "i", "m")
    blob = await raw.hget(prefix + "r", sid)
    head = int.from_bytes(blob[:2], "big")
    assert head & 0x4000 and head & 0x3FFF == 1  # ordered; claim_id "m"
    tokens = [blob[i : i + 4] for i in range(3, len(blob), 4)]
    assert tokens[0] == token_hash("alice").to_bytes(4, "big")
    (swap,) = await index.check_and_insert([DedupRequest(t, "c1", "Bob reports to Alice")])
    assert not swap.is_duplicate and swap.variant_of == "m"
    # the record as an older version wrote it: no order bit, hashes reversed
    legacy = (head & ~0x4000).to_bytes(2, "big") + blob[2:3] + b"".join(reversed(tokens))
    await raw.hset(prefix + "r", sid, legacy)
    same, swapped = await index.check_and_insert(
        [
            DedupRequest(t, "c2", "alice reports to bob", insert=False),
            DedupRequest(t, "c3", "bob reports to alice", insert=False),
        ]
    )
    assert same.duplicate_of == "m" and swapped.duplicate_of == "m"
    assert await index.remove(t, "m") is True


async def test_records_keep_their_names_and_older_records_are_compared_as_before(
    index: MinHashDedupIndex, raw: aioredis.Redis, cfg: DedupConfig, unique_tenant: str
) -> None:
    """Since session 11 a record keeps its names among its marks (header bit 0x2000), so a
    claim that puts a word without a capital in a name's place is a variant; a record
    written before (no names kept) tells it by the word's place since session 12 (the
    name stood before a word both have), and what the claim's own words show (a name of
    its own, an antonym) counts against it as before."""
    t = unique_tenant
    # its marks: "quarterly", "nightly" (frequencies are numbers), two names and "During"
    text = pending.PLANNED
    await index.check_and_insert([DedupRequest(t, "m", text)])
    prefix = f"{cfg.redis_prefix}:{{{t}}}:"
    sid = await raw.hget(prefix + "i", "m")
    blob = await raw.hget(prefix + "r", sid)
    head = int.from_bytes(blob[:2], "big")
    assert head & 0x2000 and head & 0x1FFF == 1  # marks kept; claim_id "m"
    count = blob[3]
    kept = {blob[4 + 4 * i : 8 + 4 * i] for i in range(count)}
    numbers = [token_hash(w).to_bytes(4, "big") for w in ("quarterly", "nightly")]
    names = [token_hash(w).to_bytes(4, "big") for w in ("tuesday", "alice", "during")]
    assert kept == {*numbers, *names}
    lowered = text.replace("Alice", "bob").lower()
    (changed,) = await index.check_and_insert([DedupRequest(t, "c1", lowered, insert=False)])
    assert not changed.is_duplicate and changed.variant_of == "m"
    # the record as session 10 wrote it for this text: its numbers its only marks
    legacy = blob[:3] + bytes([2]) + b"".join(numbers) + blob[4 + 4 * count :]
    await raw.hset(prefix + "r", sid, legacy)
    lower, named, antonym = await index.check_and_insert(
        [
            DedupRequest(t, "c2", lowered, insert=False),
            DedupRequest(t, "c3", text.replace("Alice", "Bob"), insert=False),
            DedupRequest(t, "c4", text.replace("enabled", "disabled"), insert=False),
        ]
    )
    # no name kept, but "bob" stands where the record has "alice", before "confirmed",
    # which both have: a word replaced in place (session 12), read from the record's order
    assert lower.variant_of == "m"
    assert named.variant_of == "m" and antonym.variant_of == "m"
    assert await index.remove(t, "m") is True


async def test_a_negation_spelled_another_way_against_records_of_every_version(
    index: MinHashDedupIndex, raw: aioredis.Redis, cfg: DedupConfig, unique_tenant: str
) -> None:
    """A claim's negation in another spelling ("can't", "can not" for the memory's
    "cannot") is no change against a record of today, and against one written before
    session 10 (no marks kept, hashes in any order: its negations known by hash only);
    the negation dropped is a change against both (docs/dedup.md §Variants)."""
    t = unique_tenant
    text = pending.EXPORT.replace("keeps", "cannot keep")
    await index.check_and_insert([DedupRequest(t, "m", text)])
    prefix = f"{cfg.redis_prefix}:{{{t}}}:"
    sid = await raw.hget(prefix + "i", "m")
    blob = await raw.hget(prefix + "r", sid)
    head = int.from_bytes(blob[:2], "big")
    assert head & 0x2000 and head & 0x1FFF == 1  # marks kept; claim_id "m"
    claims = [
        DedupRequest(t, "c1", text.replace("cannot", "can't"), insert=False),
        DedupRequest(t, "c2", text.replace("cannot", "can not"), insert=False),
        DedupRequest(t, "c3", text.replace("cannot", "can"), insert=False),
    ]
    today = await index.check_and_insert(claims)
    tokens = [blob[i : i + 4] for i in range(4 + 4 * blob[3], len(blob), 4)]
    legacy = (head & 0x1FFF).to_bytes(2, "big") + blob[2:3] + b"".join(reversed(tokens))
    await raw.hset(prefix + "r", sid, legacy)
    older = await index.check_and_insert(claims)
    for got in (today, older):
        assert [r.duplicate_of for r in got] == ["m", "m", None]
        assert got[2].variant_of == "m"
    assert await index.remove(t, "m") is True
