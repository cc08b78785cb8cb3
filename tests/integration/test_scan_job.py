"""The consistency scan job on the real broker and Redis: capped by its cluster budget it
stops at a tenant and the next run resumes there; one scan at a time (the Redis lease);
its commands reach `memories.commands` on Kafka.

The view is written by the memory stage itself (its batches, no worker), three tenants
each holding the specification's unresolvable contradiction (Supabase, then Neon a day
later), so each tenant has exactly one cluster to judge.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer

from groundwire.streams.memory import view_of
from groundwire.streams.memory.scan_job import ScanBusy, ScanJob, ScanOptions
from groundwire.streams.memory.stage import MemoryStage
from groundwire.topics.memory import MemoryCommand
from tests.support.memories import approved
from tests.support.pipeline_harness import Pipeline

pytestmark = pytest.mark.integration


class Msg:
    """One record of `approved` as the consumer hands it to the stage."""

    def __init__(self, topic: str, value: bytes, offset: int) -> None:
        self._topic, self._value, self._offset = topic, value, offset

    def value(self) -> bytes:
        return self._value

    def key(self) -> bytes:
        return b"k"

    def headers(self) -> Any:
        return [("tier", b"auto_approve")]

    def topic(self) -> str:
        return self._topic

    def partition(self) -> int:
        return 0

    def offset(self) -> int:
        return self._offset

    def error(self) -> None:
        return None


@pytest.fixture
async def pipeline(
    bootstrap_servers: str, redis_url: str, unique_prefix: str, tmp_path: Path
) -> AsyncIterator[Pipeline]:
    p = Pipeline(bootstrap_servers, redis_url, unique_prefix, partitions=1, log_dir=tmp_path)
    p.create_topics()
    yield p
    view = view_of(p.settings)
    keys = [k async for k in view.client.scan_iter(match=f"{view.prefix}:*")]
    if keys:
        await view.client.delete(*keys)
    await view.aclose()
    p.close()


def _commands(p: Pipeline, want: int, timeout_s: float = 60) -> list[MemoryCommand]:
    consumer = Consumer(
        {
            "bootstrap.servers": p.bootstrap,
            "group.id": f"scan-job-{time.time_ns()}",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    consumer.subscribe([p.settings.topics.name("memories.commands")])
    out: list[MemoryCommand] = []
    deadline = time.monotonic() + timeout_s
    try:
        while len(out) < want and time.monotonic() < deadline:
            for m in consumer.consume(100, 0.5):
                if not m.error():
                    out.append(MemoryCommand.model_validate_json(m.value() or b""))
    finally:
        consumer.close()
    return out


async def test_a_capped_scan_resumes_at_the_next_tenant(
    pipeline: Pipeline, unique_tenant: str
) -> None:
    settings = pipeline.settings
    tenants = [f"{unique_tenant}-{x}" for x in "abc"]  # the scan walks them in name order
    stage = MemoryStage(settings, view_of(settings), None)
    messages = []
    for t in tenants:
        for claim_id, obj, day in (
            ("c-s", "Supabase", "2026-04-01"),
            ("c-n", "Neon", "2026-04-02"),
        ):
            routed = approved(
                claim_id,
                f"Inbox3 uses {obj}",
                tenant=t,
                subject="ent_inbox3",
                predicate="uses_database",
                obj=obj,
                created=day,
            )
            body = routed.model_dump_json().encode()
            messages.append(Msg(settings.topics.approved, body, len(messages)))
    await stage.process(messages)
    await stage.close()

    view = view_of(settings)
    try:
        assert [len(await view.active_memories(t)) for t in tenants] == [2, 2, 2]
        cursor = view.scan_key("cursor")

        # a budget of two clusters: tenants a and b, then it stops before c
        first = await ScanJob(settings, view).run(ScanOptions(run_id="run-1", budget=2))
        assert not first.complete and first.capped
        assert first.tenants_scanned == 2 and first.clusters_found == 2
        assert first.next_tenant == tenants[2]
        assert {k.value: v for k, v in first.actions.items()} == {"flag": 2}
        assert (await view.client.get(cursor)) == tenants[1].encode()

        # one scan at a time: while another holder has the lease, a scan refuses to start
        lock = view.scan_key("lock")
        assert await view.lease(view.client, [lock], ["another-scan", 60_000])
        with pytest.raises(ScanBusy):
            await ScanJob(settings, view).run(ScanOptions(run_id="run-x"))
        await view.release(view.client, [lock], ["another-scan"])

        # the next run resumes after b, finishes c and clears the cursor
        second = await ScanJob(settings, view).run(ScanOptions(run_id="run-2", budget=2))
        assert second.complete and not second.capped
        assert second.resumed_from == tenants[1]
        assert second.tenants_scanned == 1 and second.clusters_found == 1
        assert (await view.client.get(cursor)) is None
    finally:
        await view.aclose()

    # on Kafka: one flag per tenant, both Supabase and Neon in it, and the two reports
    commands = _commands(pipeline, 5)
    flags = [c for c in commands if c.kind == "flag"]
    assert sorted(c.tenant_id for c in flags) == tenants
    assert all(len(c.members) == 2 for c in flags)
    assert [c.command_id for c in flags if c.issued_by == "scan:run-2"] == [
        c.command_id for c in flags if c.tenant_id == tenants[2]
    ]
    reports = [c.report for c in commands if c.kind == "scan_report"]
    assert [r.run_id for r in reports if r is not None] == ["run-1", "run-2"]
