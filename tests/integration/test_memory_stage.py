"""The memory stage against the real Redis, batch by batch (no broker): what a replayed
batch writes, what a second writer gets, stale commands, hostile input, tenant and
owner isolation."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest

from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.streams.memory.stage import MemoryStage
from groundwire.streams.memory.view import MemoryView, ViewConflict, Write, build_memory_view
from groundwire.streams.runner import Output
from groundwire.streams.settings import Settings
from groundwire.topics.memory import MemberRef, MemoryCommand, MemoryRecord, memory_id
from groundwire.topics.records import ReviewedResult, ReviewSection
from groundwire.topics.vocab import ReviewDecision, ReviewRole
from tests.support.memories import approved

pytestmark = pytest.mark.integration

PREFIX = "gwt."


class Msg:
    def __init__(self, topic: str, value: bytes | None, offset: int, headers: Any = None) -> None:
        self._topic, self._value, self._offset, self._headers = topic, value, offset, headers

    def value(self) -> bytes | None:
        return self._value

    def key(self) -> bytes | None:
        return b"k"

    def headers(self) -> Any:
        return self._headers

    def topic(self) -> str:
        return self._topic

    def partition(self) -> int:
        return 0

    def offset(self) -> int:
        return self._offset

    def error(self) -> None:
        return None


@pytest.fixture
async def stage(redis_url: str) -> AsyncIterator[MemoryStage]:
    settings = Settings(topic_prefix=f"{PREFIX}{uuid.uuid4().hex[:8]}.", redis_url=redis_url)
    view = build_memory_view(redis_url, settings.guards.consistency, settings.topic_prefix)
    s = MemoryStage(settings, view, None)
    yield s
    keys = [k async for k in view.client.scan_iter(match=f"{view.prefix}:*")]
    if keys:
        await view.client.delete(*keys)
    await s.close()


class Feed:
    def __init__(self, stage: MemoryStage) -> None:
        self.stage = stage
        self.offset = 0

    def claim(self, claim_id: str, content: str, tenant: str = "acme", **kw: Any) -> Msg:
        self.offset += 1
        body = approved(claim_id, content, tenant=tenant, **kw).model_dump_json().encode()
        return Msg(
            self.stage.settings.topics.approved, body, self.offset, [("tier", b"auto_approve")]
        )

    def command(self, command: MemoryCommand) -> Msg:
        self.offset += 1
        return Msg(
            self.stage.settings.topics.name("memories.commands"),
            command.model_dump_json().encode(),
            self.offset,
        )

    def raw(self, topic_suffix: str, value: bytes, headers: Any = None) -> Msg:
        self.offset += 1
        return Msg(self.stage.settings.topics.name(topic_suffix), value, self.offset, headers)


def _memories(stage: MemoryStage, outputs: list[Output]) -> list[tuple[str, MemoryRecord | None]]:
    topic = stage.settings.topics.name("memories")
    return [
        (o.key.decode(), MemoryRecord.model_validate_json(o.value) if o.value else None)
        for o in outputs
        if o.topic == topic and o.key is not None
    ]


def _flag(tenant: str, members: list[MemoryRecord], cid: str = "run:fp:flag") -> MemoryCommand:
    return MemoryCommand(
        command_id=cid,
        kind="flag",
        tenant_id=tenant,
        members=[MemberRef(memory_id=m.memory_id, version=m.version) for m in members],
        issued_at=datetime.now(UTC),
        issued_by="scan:test",
    )


async def test_a_replayed_batch_writes_the_same_records_and_changes_nothing(
    stage: MemoryStage,
) -> None:
    feed = Feed(stage)
    batch = [
        feed.claim("c1", "Georgian works at Datakynd", created="2025-06-10"),
        feed.claim("c2", "Georgian works at Arrive", created="2026-04-05"),
        feed.claim("c3", "Inbox3 uses Supabase as its database", created="2026-04-01"),
        feed.claim("c4", "Inbox3 uses Neon as its database", created="2026-04-02"),
    ]
    first = await stage.process(batch)
    written = _memories(stage, first)
    assert [(k, m.version if m else None) for k, m in written] == [
        (memory_id("acme", "c1"), 1),
        (memory_id("acme", "c2"), 1),
        (memory_id("acme", "c1"), 2),
        (memory_id("acme", "c3"), 1),
        (memory_id("acme", "c4"), 1),
    ]
    # the transaction aborted: the same batch again writes the same records (the view
    # already holds them; nothing is applied twice)
    again = await stage.process(batch)
    assert [(o.topic, o.key, o.value) for o in again] == [
        (o.topic, o.key, o.value) for o in first if not _superseded_v1(stage, o)
    ]
    view = stage.view
    assert (await view.get("acme", memory_id("acme", "c1"))).version == 2  # type: ignore[union-attr]

    # a later batch flags Supabase / Neon; replaying the first batch after it no longer
    # writes their version 1 (it is not their latest): a consumer never goes back
    supabase = await view.get("acme", memory_id("acme", "c3"))
    neon = await view.get("acme", memory_id("acme", "c4"))
    assert supabase is not None and neon is not None
    flagged = await stage.process([feed.command(_flag("acme", [supabase, neon]))])
    assert [m.version for _k, m in _memories(stage, flagged) if m] == [2, 2]
    reviews = [o for o in flagged if o.topic == stage.settings.topics.review]
    assert len(reviews) == 2
    replay = await stage.process(batch)
    assert {k for k, _m in _memories(stage, replay)} == {
        memory_id("acme", "c2"),
        memory_id("acme", "c1"),
    }


def _superseded_v1(stage: MemoryStage, out: Output) -> bool:
    """c1's version 1 is no longer its latest when the batch is replayed."""
    if out.topic != stage.settings.topics.name("memories") or out.value is None:
        return False
    record = MemoryRecord.model_validate_json(out.value)
    return record.memory_id == memory_id("acme", "c1") and record.version == 1


async def test_a_second_writer_gets_a_conflict_and_changes_nothing(stage: MemoryStage) -> None:
    feed = Feed(stage)
    await stage.process([feed.claim("c1", "Georgian works at Datakynd", created="2025-06-10")])
    view: MemoryView = stage.view
    current = await view.get("acme", memory_id("acme", "c1"))
    assert current is not None
    stale = current.model_copy(update={"version": 2, "object": "Elsewhere"})
    with pytest.raises(ViewConflict):
        await view.commit("acme", [("zombie-op", b"{}")], [Write(stale, stale.memory_id, 0)], {}, 0)
    assert (await view.get("acme", current.memory_id)) == current


async def test_stale_commands_and_hostile_input(stage: MemoryStage) -> None:
    feed = Feed(stage)
    await stage.process(
        [
            feed.claim("c3", "Inbox3 uses Supabase as its database", created="2026-04-01"),
            feed.claim("c4", "Inbox3 uses Neon as its database", created="2026-04-02"),
        ]
    )
    view = stage.view
    a = await view.get("acme", memory_id("acme", "c3"))
    b = await view.get("acme", memory_id("acme", "c4"))
    assert a is not None and b is not None
    old = a.model_copy(update={"version": 7})
    out = await stage.process([feed.command(_flag("acme", [old, b], "run:stale:flag"))])
    assert out == []  # planned against a version the memory never had: stale
    assert not (await view.get("acme", a.memory_id)).flagged  # type: ignore[union-attr]
    bad = await stage.process(
        [
            feed.raw("memories.commands", b'{"kind": "merge"}'),
            feed.raw("approved", b"not json"),
            feed.raw("blocked", b"anything", [("tier", b"block")]),  # the pipeline's own: skipped
        ]
    )
    assert [orjson.loads(o.value or b"")["reason"] for o in bad] == ["invalid_memory_input"] * 2


async def test_tenants_and_owners_stay_apart(stage: MemoryStage) -> None:
    feed = Feed(stage)
    await stage.process(
        [
            feed.claim("c1", "Georgian works at Datakynd", tenant="acme"),
            feed.claim("c2", "Georgian works at Arrive", tenant="globex"),
        ]
    )
    view = stage.view
    acme = await view.get("acme", memory_id("acme", "c1"))
    globex = await view.get("globex", memory_id("globex", "c2"))
    assert acme is not None and globex is not None
    assert await view.get("acme", globex.memory_id) is None
    # acme's retraction naming globex's memory reaches nothing
    command = MemoryCommand(
        command_id="r1",
        kind="retract",
        tenant_id="acme",
        members=[MemberRef(memory_id=globex.memory_id, version=1)],
        issued_at=datetime.now(UTC),
    )
    assert await stage.process([feed.command(command)]) == []
    assert await view.get("globex", globex.memory_id) == globex
    # a review decision by another user of the tenant does not touch the memory
    other = approved("x", acme.content, tenant="acme", user="mallory")
    fake = ReviewedResult.model_validate(
        {
            **other.model_dump(),
            "claim": {
                **other.claim.model_dump(),
                "claim_id": f"{acme.memory_id}:contradiction:1",
                "metadata": {"memory_id": acme.memory_id},
            },
            "validation": {
                **other.validation.model_dump(),
                "reason_code": "contradicts_memory",
                "tier": "flag_review",
                "approved": False,
            },
            "review": ReviewSection(
                decision=ReviewDecision.REJECT,
                queue_id="q",
                reviewer="mallory",
                role=ReviewRole.OWNER,
                reason="no",
                submitted_at=datetime.now(UTC),
                decided_at=datetime.now(UTC),
                request_id="r",
            ),
        }
    )
    out = await stage.process(
        [feed.raw("blocked", fake.model_dump_json().encode(), [("event", b"review_decision")])]
    )
    assert out == []
    assert await view.get("acme", acme.memory_id) == acme


def test_memory_view_prefix_refuses_hash_tags() -> None:
    with pytest.raises(ValueError):
        MemoryView(None, "gw:{x}", ConsistencyConfig())  # type: ignore[arg-type]
    asyncio.run(asyncio.sleep(0))
