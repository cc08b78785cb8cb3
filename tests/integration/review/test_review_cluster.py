"""The review queue on a Redis Cluster: every script's keys share one shard's hash-tag
slot, so enqueue, list, get and decide work across several shards on several nodes."""

from __future__ import annotations

import asyncio

import pytest

from groundwire.guards.redis_client import connect
from groundwire.streams.review.config import ReviewConfig
from groundwire.streams.review.rules import Reviewer
from groundwire.streams.review.store import Decided, NewItem, Pending, Refused, ReviewStore
from groundwire.topics.vocab import ReviewDecision
from tests.support.names import RUN
from tests.support.review import flagged, record_bytes

pytestmark = pytest.mark.integration


async def test_the_queue_runs_on_a_redis_cluster(redis_cluster) -> None:
    client = connect(
        redis_cluster.url, socket_timeout_s=10, connect_timeout_s=10, retries=3, cluster=True
    )
    store = ReviewStore(client, ReviewConfig(redis_prefix=f"{RUN}:rvc", shards=8, max_per_owner=3))
    tenants = [f"tenant-{i}" for i in range(12)]
    assert len({store.keys.shard_of(t) for t in tenants}) > 3
    items = []
    for t in tenants:
        for n in range(4):
            r = flagged(t, "alice", f"{t} claim {n}")
            items.append(
                NewItem(t, "alice", r.claim.claim_id, 1_000 + n, record_bytes(r), f"o:{t}:{n}")
            )
    outcomes = await store.enqueue(items)
    assert [o.state for o in outcomes] == ["queued", "queued", "queued", "overflow"] * len(tenants)
    for t in tenants:
        alice = Reviewer(t, "alice")
        page = await store.list(alice, owner=None, limit=10, cursor="", request_id="r")
        assert [p.submitted_ms for p in page.items] == [1_002, 1_001, 1_000]
        qid = page.items[0].queue_id
        assert isinstance(await store.get(alice, qid, "r"), Pending)
        assert isinstance(await store.get(Reviewer(t, "bob"), qid, "r"), Refused)
        results = await asyncio.gather(
            store.decide(alice, qid, ReviewDecision.APPROVE, "", "a"),
            store.decide(alice, qid, ReviewDecision.REJECT, "no", "b"),
        )
        assert sum(isinstance(x, Decided) for x in results) == 1
    depth, _ = await store.depth()
    assert depth == 2 * len(tenants)
    assert await store.outbox_length() > 0
    await client.aclose()
