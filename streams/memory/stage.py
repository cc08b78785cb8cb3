"""The memory stage: approved claims become memories; scan commands and review decisions
change them (docs/spec.md §Store-time consistency; docs/architecture.md §Memory view).

It reads three topics, all keyed by tenant, in one consumer group
(`<group>.memory`): `approved` (claims the route stage or a reviewer approved),
`memories.commands` (merge / supersede / flag / retract, from the scan and
`groundwire memories retract`) and `blocked` (only reviewers' rejections of flagged
memories; the rest is skipped by its headers, unparsed). The topics have the same
partition count and librdkafka's default range assignor gives one member the same
partition of each, so one process handles all of a tenant's changes, in order: the
single writer that keeps the versions on `memories` in order.

Exactly once, like the other stages: a batch's outputs (memory versions and tombstones
on `memories`, audit events, review items for new contradictions) and its input
offsets commit in one Kafka transaction (streams/runner.py). The view in Redis is
written first, inside `process`, by one script per tenant that also records what each
input did (its *op*, by an id derived from the input). When the transaction aborts, the
replay finds its ops applied and writes the same records again from that log; a memory
version is re-written only while it is still the memory's latest, so a consumer of
`memories` never sees an older version after a newer one. The script checks every
memory's version, so a second writer (a zombie from before a rebalance) changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from confluent_kafka import Message
from pydantic import ValidationError

from groundwire.guards.consistency.apply import Applied, apply_command, retract
from groundwire.guards.consistency.memory import confirm, new_memory, sp_key, supersede_on_write
from groundwire.guards.consistency.review import contradiction_review, review_target
from groundwire.guards.protocols import DedupIndex
from groundwire.metrics import consistency as consistency_metrics
from groundwire.streams import kafka, telemetry
from groundwire.streams.memory.view import MemoryView, TenantState, Write, sp_field
from groundwire.streams.runner import Output
from groundwire.streams.settings import Settings
from groundwire.streams.stages.dlq import dead_letter, dlq_output
from groundwire.topics.codec import DecodeFailure, dumps
from groundwire.topics.memory import MemoryAuditEvent, MemoryCommand, MemoryRecord, memory_id
from groundwire.topics.records import ReviewedResult, RoutedResult
from groundwire.topics.vocab import DlqReason, MemoryChange, ReviewDecision, Tier

log = logging.getLogger(__name__)

COMMANDS_TOPIC = "memories.commands"
MEMORIES_TOPIC = "memories"
REVIEW_DECISION = b"review_decision"


@dataclass
class _Op:
    """One input the stage acts on."""

    op_id: str
    kind: str  # claim | command | confirm | reject
    tenant: str
    origin: str
    routed: RoutedResult | None = None
    command: MemoryCommand | None = None
    target: str | None = None  # confirm / reject: the flagged memory
    new: MemoryRecord | None = None  # claim: the memory it becomes


class _Log:
    """What one op wrote, in order, kept in the view's op log for replays: memory
    versions ("w", id, version), tombstones ("t", id), audit events ("a", body, event) and
    review items ("r", id, version, body)."""

    def __init__(self, items: list[list[Any]] | None = None) -> None:
        self.items: list[list[Any]] = items if items is not None else []

    def write(self, memory: MemoryRecord) -> None:
        self.items.append(["w", memory.memory_id, memory.version])

    def tombstone(self, memory_id_: str) -> None:
        self.items.append(["t", memory_id_])

    def audit(self, body: str, event: str = "memory") -> None:
        self.items.append(["a", body, event])

    def review(self, memory: MemoryRecord, body: str) -> None:
        self.items.append(["r", memory.memory_id, memory.version, body])

    def writes(self) -> list[str]:
        return [str(item[1]) for item in self.items if item[0] in ("w", "r")]

    def blob(self) -> bytes:
        return orjson.dumps(self.items)

    @classmethod
    def parse(cls, raw: bytes) -> _Log:
        items = orjson.loads(raw)
        return cls(items if isinstance(items, list) else [])


def _header(message: Message, name: str) -> bytes | None:
    headers = message.headers()
    if isinstance(headers, list):
        for key, value in headers:
            if key == name and isinstance(value, bytes):
                return value
    return None


def _origin(message: Message) -> str:
    topic, partition, offset = kafka.coordinates(message)
    return f"{topic}:{partition}:{offset}"


class _Tenant:
    """One tenant's part of a batch: a working copy of the memories it touches."""

    def __init__(self, stage: MemoryStage, tenant: str, state: TenantState) -> None:
        self.stage = stage
        self.tenant = tenant
        self.state = state
        self.records: dict[str, MemoryRecord | None] = dict(state.records)
        self.touched: dict[str, None] = {}  # ordered set of changed memory ids
        self.sp_touched: set[str] = set()
        self.logged: list[tuple[str, bytes]] = []
        self.dedup_removals: list[str] = []  # claim ids leaving the dedup index
        self.outputs: list[Output] = []

    # -- the working copy -------------------------------------------------------------
    def version(self, memory_id: str) -> int:
        record = self.records.get(memory_id)
        return record.version if record is not None else 0

    async def need(self, ids: set[str]) -> None:
        """Make sure the working copy holds `ids` and the index fields they use."""
        missing = {i for i in ids if i not in self.state.versions and i not in self.records}
        if missing:
            await self.stage.view.extend(self.tenant, self.state, ids=missing)
            for i in missing:
                if i in self.state.records:
                    self.records[i] = self.state.records[i]
        fields = {self._field(r) for i in ids if (r := self.records.get(i)) is not None}
        fields.discard(None)
        if fields - set(self.state.sp):
            await self.stage.view.extend(self.tenant, self.state, sp_fields=fields)  # type: ignore[arg-type]

    @staticmethod
    def _field(memory: MemoryRecord) -> str | None:
        key = sp_key(memory)
        return sp_field(key) if key is not None else None

    def _index(self, memory: MemoryRecord, present: bool) -> None:
        name = self._field(memory)
        if name is None:
            return
        if name not in self.state.sp:  # a bug: writing it would overwrite the stored list
            raise RuntimeError(f"index field of {memory.memory_id} was not read")
        ids = self.state.sp[name]
        if present and memory.memory_id not in ids:
            ids.append(memory.memory_id)
            self.sp_touched.add(name)
        elif not present and memory.memory_id in ids:
            ids.remove(memory.memory_id)
            self.sp_touched.add(name)

    def put(self, memory: MemoryRecord, log_: _Log) -> None:
        previous = self.records.get(memory.memory_id)
        self.records[memory.memory_id] = memory
        self.touched[memory.memory_id] = None
        self._index(memory, memory.active)
        if memory.superseded_by is not None and (previous is None or previous.active):
            self.dedup_removals.append(memory.claim_id)
        log_.write(memory)
        self.outputs.append(self.stage.memory_output(memory))
        event = MemoryAuditEvent(
            change=memory.change,
            tenant_id=memory.tenant_id,
            memory_id=memory.memory_id,
            version=memory.version,
            user_id=memory.user_id,
            claim_id=memory.claim_id,
            at=memory.updated_at,
            cause=memory.cause,
            related=[
                *([memory.superseded_by] if memory.superseded_by else []),
                *memory.merged_from[-8:],
                *memory.contradicts_with[:8],
            ],
        )
        body = event.model_dump_json()
        log_.audit(body)
        self.outputs.append(self.stage.audit_output(memory.tenant_id, body.encode()))
        consistency_metrics.observe_memory_change(memory.change)

    def drop(self, memory: MemoryRecord, cause: str, now: datetime, log_: _Log) -> None:
        self.records[memory.memory_id] = None
        self.touched[memory.memory_id] = None
        self._index(memory, False)
        self.dedup_removals.append(memory.claim_id)
        log_.tombstone(memory.memory_id)
        self.outputs.append(self.stage.tombstone(memory))
        event = MemoryAuditEvent(
            change=MemoryChange.RETRACTED,
            tenant_id=memory.tenant_id,
            memory_id=memory.memory_id,
            version=memory.version + 1,
            user_id=memory.user_id,
            claim_id=memory.claim_id,
            at=now,
            cause=cause,
        )
        body = event.model_dump_json()
        log_.audit(body)
        self.outputs.append(self.stage.audit_output(memory.tenant_id, body.encode()))
        consistency_metrics.observe_memory_change(MemoryChange.RETRACTED)

    def review(self, memory: MemoryRecord, now: datetime, log_: _Log) -> None:
        others = [r for i in memory.contradicts_with if (r := self.records.get(i)) is not None]
        record = contradiction_review(memory, others, now, self.stage.settings.worker_id)
        body = dumps(record).decode()
        log_.review(memory, body)
        self.outputs.append(self.stage.review_output(memory.tenant_id, body.encode()))

    # -- ops ------------------------------------------------------------------------
    def replay(self, op: _Op) -> None:
        """An op the view already holds (its transaction aborted): the same records
        again, each memory version only while it is still the latest."""
        stage = self.stage
        for item in _Log.parse(self.state.ops[op.op_id]).items:
            kind = item[0]
            if kind == "w":
                record = self.records.get(item[1])
                if record is not None and record.version == item[2]:
                    self.outputs.append(stage.memory_output(record))
            elif kind == "t":
                if self.records.get(item[1]) is None:
                    self.outputs.append(stage.tombstone_id(self.tenant, item[1]))
            elif kind == "a":
                event = str(item[2]).encode()
                self.outputs.append(stage.audit_output(self.tenant, item[1].encode(), event))
            elif kind == "r" and self.version(item[1]) == item[2]:
                self.outputs.append(stage.review_output(self.tenant, item[3].encode()))

    async def apply(self, op: _Op, now: datetime) -> None:
        log_ = _Log()
        if op.kind == "claim":
            await self._claim(op, now, log_)
        elif op.kind == "command":
            await self._command(op, now, log_)
        else:
            await self._decision(op, now, log_)
        self.logged.append((op.op_id, log_.blob()))

    async def _claim(self, op: _Op, now: datetime, log_: _Log) -> None:
        new = op.new
        assert new is not None
        if new.memory_id in self.records or self.state.versions.get(new.memory_id):
            return  # this claim is a memory already (approved twice): nothing changes
        cfg = self.stage.cfg
        name = self._field(new)
        rivals: list[MemoryRecord] = []
        if name is not None:
            ids = set(self.state.sp.get(name, []))
            await self.need(ids)
            rivals = [r for i in ids if (r := self.records.get(i)) is not None and r.active]
        created, superseded = supersede_on_write(new, rivals, cfg, now, new.cause)
        self.put(created, log_)
        for old in superseded:
            self.put(old, log_)
        consistency_metrics.observe_write_supersessions(len(superseded))

    async def _command(self, op: _Op, now: datetime, log_: _Log) -> None:
        command = op.command
        assert command is not None
        if command.kind == "scan_report":
            assert command.report is not None
            consistency_metrics.observe_scan(command.report)
            body = command.model_dump_json()
            log_.audit(body, "scan_report")
            self.outputs.append(self.stage.audit_output(self.tenant, body.encode(), b"scan_report"))
            return
        view = self.stage.view
        ids = {r.memory_id for r in command.members}
        if command.kind == "retract" and command.user_id is not None:
            for record in await view.user_memories(self.tenant, command.user_id):
                if record.memory_id not in self.records:
                    self.records[record.memory_id] = record
                    self.state.versions[record.memory_id] = record.version
                ids.add(record.memory_id)
        await self.need(ids)
        linked = {
            i for m in ids if (r := self.records.get(m)) is not None for i in r.contradicts_with
        }
        await self.need(linked)
        current = {i: r for i, r in self.records.items() if r is not None}
        applied: Applied = apply_command(command, current, now)
        if applied.stale:
            consistency_metrics.observe_command("stale")
            log.info("memory stage: command %s is stale: %s", command.command_id, applied.detail)
            return
        if not applied.changed and not applied.retracted:
            consistency_metrics.observe_command("noop")
            return
        consistency_metrics.observe_command("applied")
        self._record(applied, f"retract:{command.command_id}", now, log_)

    def _record(self, applied: Applied, cause: str, now: datetime, log_: _Log) -> None:
        for gone in applied.retracted:
            self.drop(gone, cause, now, log_)
        for memory in applied.changed:
            self.put(memory, log_)
        for memory in applied.flagged:
            self.review(memory, now, log_)

    async def _decision(self, op: _Op, now: datetime, log_: _Log) -> None:
        target = op.target
        routed = op.routed
        assert target is not None and routed is not None
        await self.need({target})
        memory = self.records.get(target)
        if memory is None or memory.user_id != routed.claim.user_id:
            return  # retracted meanwhile, or not this owner's memory: nothing to do
        cause = f"review:{routed.claim.claim_id}"
        if op.kind == "confirm":
            # a stray dedup entry the relay may have indexed under the flag's claim id
            self.dedup_removals.append(routed.claim.claim_id)
            kept = confirm(memory, now, cause)
            if kept is not None:
                self.put(kept, log_)
            return
        await self.need(set(memory.contradicts_with))
        current = {i: r for i, r in self.records.items() if r is not None}
        self._record(retract([memory], current, now, cause), cause, now, log_)

    async def commit(self) -> None:
        writes = [
            Write(self.records.get(i), i, self.state.versions.get(i, 0)) for i in self.touched
        ]
        sp = {name: self.state.sp.get(name, []) for name in self.sp_touched}
        index = self.stage.index
        if index is not None:
            for claim_id in dict.fromkeys(self.dedup_removals):
                await index.remove(self.tenant, claim_id)
        if self.logged or writes:
            now_ms = int(time.time() * 1000)
            await self.stage.view.commit(self.tenant, self.logged, writes, sp, now_ms)


class MemoryStage:
    name = "memory"

    def __init__(
        self,
        settings: Settings,
        view: MemoryView,
        index: DedupIndex | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.settings = settings
        self.cfg = settings.guards.consistency
        topics = settings.topics
        self.source_topic = topics.approved
        self.source_topics = [topics.approved, topics.blocked, topics.name(COMMANDS_TOPIC)]
        self.view = view
        self.index = index
        self._clock = clock
        self._memories = topics.name(MEMORIES_TOPIC)
        self._commands = topics.name(COMMANDS_TOPIC)

    # -- outputs ----------------------------------------------------------------------
    def memory_output(self, memory: MemoryRecord) -> Output:
        headers = (
            ("tenant", memory.tenant_id.encode()),
            ("change", memory.change.value.encode()),
            ("version", str(memory.version).encode()),
        )
        return Output(
            self._memories, memory.memory_id.encode(), memory.model_dump_json().encode(), headers
        )

    def tombstone(self, memory: MemoryRecord) -> Output:
        return self.tombstone_id(memory.tenant_id, memory.memory_id)

    def tombstone_id(self, tenant: str, memory_id_: str) -> Output:
        headers = (("tenant", tenant.encode()), ("change", b"retracted"))
        return Output(self._memories, memory_id_.encode(), None, headers)

    def audit_output(self, tenant: str, body: bytes, event: bytes = b"memory") -> Output:
        return Output(self.settings.topics.audit, tenant.encode(), body, (("event", event),))

    def review_output(self, tenant: str, body: bytes) -> Output:
        headers = (("tier", Tier.FLAG_REVIEW.value.encode()), ("event", b"contradiction"))
        return Output(self.settings.topics.review, tenant.encode(), body, headers)

    # -- the batch ----------------------------------------------------------------------
    def _parse(self, message: Message) -> _Op | Output | None:
        topic = message.topic()
        value = message.value() or b""
        origin = _origin(message)
        try:
            if topic == self._commands:
                command = MemoryCommand.model_validate_json(value)
                return _Op(
                    command.command_id, "command", command.tenant_id, origin, command=command
                )
            if topic == self.settings.topics.blocked:
                if _header(message, "event") != REVIEW_DECISION:
                    return None  # the pipeline's own blocks: not memories
                reviewed = ReviewedResult.model_validate_json(value)
                target = review_target(reviewed)
                if target is None or target[1] is not ReviewDecision.REJECT:
                    return None
                return _Op(
                    f"review:{reviewed.claim.claim_id}",
                    "reject",
                    reviewed.claim.tenant_id,
                    origin,
                    routed=reviewed,
                    target=target[0],
                )
            routed: RoutedResult
            if _header(message, "event") == REVIEW_DECISION:
                routed = ReviewedResult.model_validate_json(value)
                if routed.review.decision is not ReviewDecision.APPROVE:
                    raise ValueError("a rejected claim on the approved topic")
                target = review_target(routed)
                if target is not None:
                    return _Op(
                        f"review:{routed.claim.claim_id}",
                        "confirm",
                        routed.claim.tenant_id,
                        origin,
                        routed=routed,
                        target=target[0],
                    )
            else:
                routed = RoutedResult.model_validate_json(value)
                if routed.validation.tier is not Tier.AUTO_APPROVE:
                    raise ValueError(f"tier {routed.validation.tier.value} on the approved topic")
            claim = routed.claim
            new = new_memory(routed, f"claim:{origin}", self._clock(), self.cfg)
            return _Op(
                f"claim:{memory_id(claim.tenant_id, claim.claim_id)}",
                "claim",
                claim.tenant_id,
                origin,
                routed=routed,
                new=new,
            )
        except (ValidationError, ValueError) as exc:
            failure = DecodeFailure(DlqReason.INVALID_MEMORY_INPUT, str(exc)[:1000])
            return dlq_output(self.settings, message, failure)

    async def process(self, messages: Sequence[Message]) -> list[Output]:
        started = time.perf_counter()
        outputs: list[Output] = []
        by_tenant: dict[str, list[_Op]] = defaultdict(list)
        for message in messages:
            parsed = self._parse(message)
            if isinstance(parsed, Output):
                outputs.append(parsed)
            elif parsed is not None:
                by_tenant[parsed.tenant].append(parsed)
        if by_tenant:
            await self.view.register_tenants(
                t for t, ops in by_tenant.items() if any(o.kind == "claim" for o in ops)
            )
            results = await asyncio.gather(*(self._tenant(t, ops) for t, ops in by_tenant.items()))
            for tenant_outputs in results:
                outputs.extend(tenant_outputs)
        telemetry.stage_latency("memory", time.perf_counter() - started)
        return outputs

    async def _tenant(self, tenant: str, ops: list[_Op]) -> list[Output]:
        ids: set[str] = set()
        fields: set[str] = set()
        for op in ops:
            if op.new is not None:
                ids.add(op.new.memory_id)
                key = sp_key(op.new)
                if key is not None:
                    fields.add(sp_field(key))
            if op.command is not None:
                ids.update(r.memory_id for r in op.command.members)
            if op.target is not None:
                ids.add(op.target)
        state = await self.view.read(tenant, ids, fields, [o.op_id for o in ops])
        work = _Tenant(self, tenant, state)
        more: set[str] = {i for f in fields for i in state.sp.get(f, [])}
        for raw in state.ops.values():
            more.update(_Log.parse(raw).writes())
        for record in list(state.records.values()):
            more.update(record.contradicts_with)
        await work.need(more | set(state.records))
        now = self._clock()
        for op in ops:
            if op.op_id in state.ops:
                work.replay(op)
            else:
                await work.apply(op, now)
        await work.commit()
        return work.outputs

    def dead_letter(self, message: Message, reason: str, detail: str) -> Output:
        return dead_letter(self.settings, message, reason, detail)

    async def close(self) -> None:
        await self.view.aclose()
        if self.index is not None:
            await self.index.aclose()
