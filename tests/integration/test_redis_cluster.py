"""Dedup and the citation cache on a real three-node Redis Cluster (the scale-out path)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import orjson
import pytest

from groundwire.guards.citations import detect
from groundwire.guards.citations.verifier import build_citation_verifier
from groundwire.guards.config import CitationConfig, DedupConfig
from groundwire.guards.dedup import MinHashDedupIndex, build_dedup_index
from groundwire.guards.protocols import DedupRequest
from tests.support.names import RUN
from tests.support.pipeline_harness import Pipeline
from tests.support.redis_server import RedisClusterServer

pytestmark = pytest.mark.integration

TEXT = "the billing service retries failed card payments three times with exponential backoff"
TENANTS = [f"tenant-{i}-{uuid.uuid4().hex[:6]}" for i in range(24)]


@pytest.fixture
def cfg() -> DedupConfig:
    return DedupConfig(redis_prefix=f"{RUN}:dedup:{uuid.uuid4().hex[:8]}")


@pytest.fixture
async def index(
    cfg: DedupConfig, redis_cluster: RedisClusterServer
) -> AsyncIterator[MinHashDedupIndex]:
    idx = build_dedup_index(cfg, redis_cluster.url, cluster=True)
    yield idx
    await idx.aclose()


def _nodes_holding(cluster: RedisClusterServer, pattern: str) -> dict[int, int]:
    """node index -> number of keys matching `pattern` stored on it."""
    out: dict[int, int] = {}
    for i, node in enumerate(cluster.node_clients()):
        n = sum(1 for _ in node.scan_iter(match=pattern, count=1000))
        if n:
            out[i] = n
    return out


async def test_batches_spanning_nodes_are_decided_per_tenant(
    index: MinHashDedupIndex, cfg: DedupConfig, redis_cluster: RedisClusterServer
) -> None:
    first = await index.check_and_insert([DedupRequest(t, "c1", TEXT) for t in TENANTS])
    assert not any(r.failed or r.is_duplicate for r in first)  # tenants never match each other
    again = await index.check_and_insert([DedupRequest(t, "c2", TEXT) for t in TENANTS])
    assert [r.duplicate_of for r in again] == ["c1"] * len(TENANTS)
    # the batch really spread over the cluster, and each tenant's keys sit on one node
    assert len(_nodes_holding(redis_cluster, f"{cfg.redis_prefix}:*")) >= 2
    for tenant in TENANTS[:5]:
        assert len(_nodes_holding(redis_cluster, f"{cfg.redis_prefix}:{{{tenant}}}:*")) == 1


async def test_scripts_reload_after_the_nodes_forget_them(
    index: MinHashDedupIndex, redis_cluster: RedisClusterServer
) -> None:
    await index.check_and_insert([DedupRequest(t, "c1", TEXT) for t in TENANTS])
    for node in redis_cluster.node_clients():
        node.script_flush()  # what a node restart or failover does to the script cache
    again = await index.check_and_insert([DedupRequest(t, "c2", TEXT) for t in TENANTS])
    assert [r.duplicate_of for r in again] == ["c1"] * len(TENANTS)


async def test_remove_on_the_cluster(index: MinHashDedupIndex) -> None:
    tenant = TENANTS[0]
    await index.check_and_insert([DedupRequest(tenant, "c1", TEXT)])
    assert await index.remove(tenant, "c1") is True
    (after,) = await index.check_and_insert([DedupRequest(tenant, "c3", TEXT)])
    assert not after.is_duplicate and not after.failed


async def test_pending_entries_promote_and_discard_on_the_cluster(
    index: MinHashDedupIndex, cfg: DedupConfig, redis_cluster: RedisClusterServer
) -> None:
    """Claims queued for review are pending entries in the tenant's slot; a copy is only
    reported; an approved one becomes a memory; a rejected one leaves (spec:
    Near-duplicates)."""
    queued = await index.check_and_insert(
        [DedupRequest(t, "rv", TEXT, pending=True) for t in TENANTS]
    )
    assert not any(r.failed or r.is_duplicate or r.pending_of for r in queued)
    copies = await index.check_and_insert([DedupRequest(t, "c2", TEXT) for t in TENANTS])
    assert [(r.is_duplicate, r.pending_of) for r in copies] == [(False, "rv")] * len(TENANTS)
    for tenant in TENANTS[:5]:
        assert len(_nodes_holding(redis_cluster, f"{cfg.redis_prefix}:{{{tenant}}}:*")) == 1
    tenant = TENANTS[0]
    promoted = await index.promote(tenant, "rv")
    assert promoted.is_duplicate and promoted.duplicate_of == "c2"  # c2 was approved first
    other = TENANTS[1]
    assert await index.remove(other, "rv") is True  # rejected in review
    assert await index.remove(other, "c2") is True
    await index.check_and_insert([DedupRequest(other, "rv2", TEXT, pending=True)])
    assert not (await index.promote(other, "rv2")).is_duplicate
    (copy,) = await index.check_and_insert([DedupRequest(other, "c3", TEXT)])
    assert copy.duplicate_of == "rv2"


async def test_citation_verdicts_are_shared_through_the_cluster(
    redis_cluster: RedisClusterServer, tmp_path: Path
) -> None:
    (tmp_path / "ADR-007-sharding.md").write_text("# ADR-007\n")
    cfg = CitationConfig(adr_dirs=[tmp_path], redis_prefix=f"{RUN}:cite:{uuid.uuid4().hex[:8]}")
    cits = detect("Per ADR-007 we shard by tenant") + detect("Per ADR-999 we use magic")
    one = build_citation_verifier(cfg, redis_cluster.url, cluster=True)
    two = build_citation_verifier(cfg, redis_cluster.url, cluster=True)
    try:
        assert [r.verified for r in await one.averify_many(cits)] == [True, False]
        assert [r.verified for r in await two.averify_many(cits)] == [True, False]
        assert two.checks_run == 0 and two.shared_hits == 2
    finally:
        await one.aclose()
        await two.aclose()


def test_the_worker_runs_on_the_cluster_end_to_end(
    redis_cluster: RedisClusterServer, bootstrap_servers: str, unique_prefix: str, tmp_path: Path
) -> None:
    """GROUNDWIRE_REDIS_CLUSTER wires the worker's dedup index and citation cache to the
    cluster: duplicates across a batch spanning nodes are caught, nothing fails closed."""
    pipeline = Pipeline(
        bootstrap_servers,
        redis_cluster.url,
        unique_prefix,
        log_dir=tmp_path,
        extra_env={"GROUNDWIRE_REDIS_CLUSTER": "true"},
    )
    pipeline.create_topics()
    try:
        claims = [
            orjson.dumps(
                {
                    "claim_id": f"{tenant}-{n}",
                    "tenant_id": tenant,
                    "content": TEXT,
                    "memory_type": "fact",
                    "source": "user",
                }
            )
            for n in (1, 2)
            for tenant in TENANTS[:12]
        ]
        pipeline.start_worker()
        pipeline.produce(claims, key_of=lambda v: orjson.loads(v)["tenant_id"].encode())
        reader = pipeline.reader()
        try:
            assert reader.poll_until(len(claims), 120) == len(claims)
        finally:
            reader.close()
        routed = {doc["claim"]["claim_id"]: (topic, doc) for topic, doc in reader.records}
        for tenant in TENANTS[:12]:
            first_topic, _ = routed[f"{tenant}-1"]
            second_topic, second = routed[f"{tenant}-2"]
            assert first_topic == "approved"
            assert second_topic == "blocked" and second["duplicate_of"] == f"{tenant}-1"
        assert not any("dedup_failed" in doc["validation"]["reason"] for _, doc in routed.values())
    finally:
        pipeline.close()
