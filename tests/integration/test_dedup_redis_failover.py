"""Fail closed: Redis goes away mid-sequence and comes back; the same index object recovers.

Starts its OWN redis-server (temp dir, free port) because it must stop and restart it;
the shared server is never touched. AOF persistence is on so the restarted server holds
the index again, which also exercises the script reload (a restart empties the script
cache, so the first EVALSHA after it meets NOSCRIPT).
"""

from __future__ import annotations

import pytest

from groundwire.guards.config import DedupConfig
from groundwire.guards.dedup import DedupStoreError, build_dedup_index
from groundwire.guards.protocols import DedupRequest
from tests.support.redis_server import RedisServer

pytestmark = pytest.mark.integration

TEXT = "payments are retried three times with exponential backoff before the order is cancelled"


async def test_redis_outage_fails_closed_and_the_same_index_recovers(
    own_redis: RedisServer,
) -> None:
    cfg = DedupConfig(
        redis_socket_timeout_s=0.5, redis_connect_timeout_s=0.5, redis_batch_timeout_s=3.0
    )
    index = build_dedup_index(cfg, own_redis.url)
    try:
        first = await index.check_and_insert([DedupRequest("acme", "m1", TEXT)])
        assert not first[0].is_duplicate and not first[0].failed

        own_redis.stop()
        during = await index.check_and_insert(
            [
                DedupRequest("acme", "m2", TEXT + " today"),
                DedupRequest("acme", "m3", "an unrelated memory about the deploy pipeline"),
                DedupRequest("other", "m4", TEXT),
            ]
        )
        for r in during:
            assert r.failed and not r.is_duplicate
            assert r.error is not None and r.error.startswith("dedup check failed: ")
        with pytest.raises(DedupStoreError):
            await index.remove("acme", "m1")

        own_redis.start()  # same port, same data directory
        after = await index.check_and_insert(
            [
                DedupRequest("acme", "m2", TEXT + " today"),
                DedupRequest("acme", "m3", "an unrelated memory about the deploy pipeline"),
            ]
        )
        assert not any(r.failed for r in after)
        assert after[0].duplicate_of == "m1"  # the index survived and answers again
        assert not after[1].is_duplicate
        assert await index.remove("acme", "m1") is True
    finally:
        await index.aclose()
