"""The shared citation-verdict cache in a real Redis: sharing, TTLs, scoping, outages."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from groundwire.guards.citations import detect
from groundwire.guards.citations.cache import CitationVerdict, RedisVerdictCache
from groundwire.guards.citations.verifier import CitationVerifier, build_citation_verifier
from groundwire.guards.config import CitationConfig
from groundwire.guards.redis_client import connect
from tests.support.names import RUN
from tests.support.redis_server import RedisServer, delete_prefix

pytestmark = pytest.mark.integration


@pytest.fixture
def adr_dir(tmp_path: Path) -> Path:
    adrs = tmp_path / "adrs"
    adrs.mkdir()
    (adrs / "ADR-007-sharding.md").write_text("# ADR-007\n")
    return adrs


@pytest.fixture
def cfg(adr_dir: Path) -> CitationConfig:
    # a prefix of its own per test: other engineers share this Redis
    return CitationConfig(adr_dirs=[adr_dir], redis_prefix=f"{RUN}:cite:{uuid.uuid4().hex[:8]}")


@pytest.fixture
async def raw(redis_url: str, cfg: CitationConfig) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(redis_url)
    yield client
    await delete_prefix(client, cfg.redis_prefix)
    await client.aclose()


def _worker(
    cfg: CitationConfig, redis_url: str, errors: list[str] | None = None
) -> CitationVerifier:
    """One screen worker's verifier, as the worker process builds it."""
    on_error = errors.append if errors is not None else None
    return build_citation_verifier(cfg, redis_url, on_cache_error=on_error)


async def test_a_verdict_checked_by_one_worker_serves_another(
    cfg: CitationConfig, redis_url: str, adr_dir: Path, raw: aioredis.Redis
) -> None:
    cits = detect("Per ADR-007 we shard by tenant") + detect("Per ADR-999 we use magic")
    first, second = _worker(cfg, redis_url), _worker(cfg, redis_url)
    try:
        reports = await first.averify_many(cits)
        assert [r.verified for r in reports] == [True, False]
        assert first.checks_run == 2
        # the file goes away: a fresh check would now say False, the shared verdict says True
        (adr_dir / "ADR-007-sharding.md").unlink()
        again = await second.averify_many(cits)
        assert [r.verified for r in again] == [True, False]
        assert second.checks_run == 0 and second.shared_hits == 2
        assert [r.reason for r in again] == [r.reason for r in reports]
        # now in the second worker's own cache too: no Redis round trip needed
        await second.averify_many(cits)
        assert second.shared_hits == 2 and second.checks_run == 0
    finally:
        await first.aclose()
        await second.aclose()


async def test_keys_hold_a_digest_and_expire_with_the_ttl(
    cfg: CitationConfig, redis_url: str, raw: aioredis.Redis
) -> None:
    cfg = cfg.model_copy(update={"cache_ttl_s": 120.0})
    url = "https://example.invalid/secret-path?token=abc"
    worker = _worker(cfg, redis_url)
    try:
        cache = worker.shared_cache
        assert cache is not None
        await cache.put_many(
            [
                (("url", url), CitationVerdict(True, "HTTP 200")),
                (("url", url + "2"), CitationVerdict(None, "timeout", transient=True)),
            ]
        )
        keys = [k.decode() async for k in raw.scan_iter(match=f"{cfg.redis_prefix}:*")]
        assert len(keys) == 2
        assert all("example" not in k and "token" not in k for k in keys)
        ttls = sorted([await raw.pttl(k) for k in keys])
        assert 0 < ttls[0] <= 60_000  # transient: at most a minute
        assert 60_000 < ttls[1] <= 120_000
    finally:
        await worker.aclose()


async def test_workers_with_other_settings_do_not_share_verdicts(
    cfg: CitationConfig, redis_url: str, tmp_path: Path, raw: aioredis.Redis
) -> None:
    cits = detect("Per ADR-007 we shard by tenant")
    other_dir = tmp_path / "other-adrs"
    other_dir.mkdir()
    other_cfg = cfg.model_copy(update={"adr_dirs": [other_dir]})
    here, elsewhere = _worker(cfg, redis_url), _worker(other_cfg, redis_url)
    try:
        assert [r.verified for r in await here.averify_many(cits)] == [True]
        assert [r.verified for r in await elsewhere.averify_many(cits)] == [False]
        assert elsewhere.checks_run == 1 and elsewhere.shared_hits == 0
    finally:
        await here.aclose()
        await elsewhere.aclose()


async def test_an_unreadable_value_is_a_miss_and_is_overwritten(
    cfg: CitationConfig, redis_url: str, raw: aioredis.Redis
) -> None:
    cits = detect("Per ADR-007 we shard by tenant")
    worker = _worker(cfg, redis_url)
    try:
        assert worker.shared_cache is not None
        key = worker.shared_cache.key(("adr", cits[0].value))
        await raw.set(key, b"\xff not json", ex=600)
        assert [r.verified for r in await worker.averify_many(cits)] == [True]
        assert worker.checks_run == 1
        assert b'"v":true' in (await raw.get(key) or b"")
    finally:
        await worker.aclose()


async def test_redis_down_means_direct_checks_then_recovery(
    own_redis: RedisServer, adr_dir: Path
) -> None:
    cfg = CitationConfig(adr_dirs=[adr_dir], redis_prefix=f"{RUN}:cite")
    errors: list[str] = []
    client = connect(own_redis.url, socket_timeout_s=0.3, connect_timeout_s=0.3, retries=0)
    cache = RedisVerdictCache(
        client,
        prefix=cfg.redis_prefix,
        scope="s",
        ttl_s=600,
        on_error=errors.append,
        cooldown_s=0.0,
    )
    cits = detect("Per ADR-007 we shard by tenant")
    own_redis.stop()
    down = CitationVerifier(cfg, shared_cache=cache)
    try:
        assert [r.verified for r in await down.averify_many(cits)] == [True]
        assert down.checks_run == 1
        assert errors and set(errors) <= {"read", "write"}
        own_redis.start()
        up = CitationVerifier(cfg, shared_cache=cache)
        assert [r.verified for r in await up.averify_many(cits)] == [True]
        assert up.checks_run == 1  # nothing was written while Redis was down
        later = CitationVerifier(cfg, shared_cache=cache)
        assert [r.verified for r in await later.averify_many(cits)] == [True]
        assert later.checks_run == 0 and later.shared_hits == 1
    finally:
        await cache.aclose()


async def test_after_a_failure_redis_is_skipped_for_the_cooldown(own_redis: RedisServer) -> None:
    now = [0.0]
    errors: list[str] = []
    client = connect(own_redis.url, socket_timeout_s=0.3, connect_timeout_s=0.3, retries=0)
    cache = RedisVerdictCache(
        client,
        prefix=f"{RUN}:cite",
        scope="s",
        ttl_s=600,
        on_error=errors.append,
        cooldown_s=5.0,
        clock=lambda: now[0],
    )
    try:
        own_redis.stop()
        assert await cache.get_many([("adr", "ADR-1")]) == [None]
        assert errors == ["read"] and not cache.available
        own_redis.start()
        await cache.put_many([(("adr", "ADR-1"), CitationVerdict(True, "found"))])
        assert await cache.get_many([("adr", "ADR-1")]) == [None]  # skipped, not tried
        now[0] = 5.0
        await cache.put_many([(("adr", "ADR-1"), CitationVerdict(True, "found"))])
        (hit,) = await cache.get_many([("adr", "ADR-1")])
        assert (
            hit is not None and hit[0] == CitationVerdict(True, "found") and 60 < hit[1] <= 600
        )  # the stored TTL, not the transient cap
        assert errors == ["read"]
    finally:
        await cache.aclose()
