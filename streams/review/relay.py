"""Outbox to Kafka, exactly once: the review decisions' one way onto the topics.

A decision is taken in Redis (streams/review/lua.py DECIDE: the item leaves the queue and
an entry joins the shard's outbox stream, atomically). The relay writes outbox entries to
Kafka inside a Kafka transaction that also writes the relay's *position* (the last entry
id it relayed) to the compacted `review.relay` topic, keyed by relay id. Only after the
commit does it trim the entries from the outbox. At start it first fences any earlier
incarnation (init_transactions on its stable transactional id, which aborts what that one
left open), then reads its position back `read_committed`. So:

* killed before the commit: the transaction is aborted, its records are never visible,
  the entries are still in the outbox and are written again: once;
* killed after the commit, before the trim: the position says the entries were written,
  they are skipped and trimmed: once.

One relay per shard works at a time: a Redis lease picks it, and Kafka's fencing of the
transactional id makes a relay that lost its lease (paused, partitioned) unable to
commit. Before producing, the relay applies each decision to the dedup index (approve:
the claim becomes a memory; reject: it leaves the index); both are idempotent, and a
failure pauses the relay instead of writing a decision without its effect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from confluent_kafka import KafkaError, KafkaException, Producer, TopicPartition

from groundwire.guards.config import DedupConfig
from groundwire.guards.protocols import DedupIndex
from groundwire.metrics import review as review_metrics
from groundwire.streams import kafka
from groundwire.streams.review import faults, lua, memory_index
from groundwire.streams.review.store import ReviewStore, _Script
from groundwire.streams.runner import Output
from groundwire.streams.settings import Settings
from groundwire.topics.codec import dumps
from groundwire.topics.records import (
    ReviewAuditEvent,
    ReviewedResult,
    ReviewSection,
    RoutedResult,
)
from groundwire.topics.vocab import (
    ReviewAction,
    ReviewDecision,
    ReviewDenial,
    ReviewRole,
)

log = logging.getLogger(__name__)

_BACKOFF_MIN_S = 0.5
_BACKOFF_MAX_S = 5.0
POSITION_TOPIC = "review.relay"


class LeaseLost(Exception):
    """Another relay holds this shard now."""


@dataclass(frozen=True, slots=True)
class Entry:
    id: str
    fields: dict[str, str]

    def get(self, name: str) -> str:
        return self.fields.get(name, "")


def _ms(value: str) -> datetime:
    return datetime.fromtimestamp(int(value) / 1000, UTC)


def _entry(raw: tuple[Any, Any]) -> Entry:
    entry_id, data = raw
    fields = {
        (k.decode() if isinstance(k, bytes) else str(k)): (
            v.decode("utf-8", "surrogatepass") if isinstance(v, bytes) else str(v)
        )
        for k, v in data.items()
    }
    return Entry(entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id), fields)


def audit_event(entry: Entry) -> ReviewAuditEvent:
    """The audit record of one outbox entry (every action has one)."""
    denial = entry.get("dn")
    count = entry.get("n")
    return ReviewAuditEvent(
        action=ReviewAction(entry.get("a")),
        tenant_id=entry.get("t"),
        actor=entry.get("u"),
        role=ReviewRole(entry.get("r") or "owner"),
        at=_ms(entry.get("at") or "0"),
        request_id=entry.get("rq"),
        queue_id=entry.get("q") or None,
        claim_id=entry.get("c") or None,
        owner=entry.fields.get("o"),
        reason=entry.get("rs"),
        denial=ReviewDenial(denial) if denial else None,
        count=int(count) if count else None,
    )


def decided_record(entry: Entry, duplicate_of: str | None) -> ReviewedResult:
    """The routed record the pipeline flagged plus the person's decision."""
    routed = orjson.loads(entry.get("d"))
    section = ReviewSection(
        decision=ReviewDecision(entry.get("a")),
        queue_id=entry.get("q"),
        reviewer=entry.get("u"),
        role=ReviewRole(entry.get("r")),
        reason=entry.get("rs"),
        submitted_at=_ms(entry.get("s")),
        decided_at=_ms(entry.get("at")),
        request_id=entry.get("rq"),
        duplicate_of=duplicate_of,
    )
    return ReviewedResult.model_validate({**routed, "review": section})


def outputs_of(settings: Settings, entry: Entry, duplicate_of: str | None = None) -> list[Output]:
    """Kafka records of one outbox entry: a decision's record on approved / blocked, and
    the action's audit event. Pure: the same entry always gives the same records."""
    topics = settings.topics
    event = audit_event(entry)
    key = event.tenant_id.encode()
    out: list[Output] = []
    if event.action in (ReviewAction.APPROVE, ReviewAction.REJECT):
        record = decided_record(entry, duplicate_of)
        topic = topics.approved if event.action is ReviewAction.APPROVE else topics.blocked
        headers = (("tier", b"flag_review"), ("event", b"review_decision"))
        out.append(Output(topic, key, dumps(record), headers))
    out.append(Output(topics.audit, key, dumps(event), (("event", b"review"),)))
    return out


class Relay:
    """Relays one shard's outbox while it holds the shard's lease."""

    def __init__(
        self,
        settings: Settings,
        store: ReviewStore,
        shard: int,
        holder: str,
        index: DedupIndex | None = None,
        dedup_cfg: DedupConfig | None = None,
    ) -> None:
        self.settings = settings
        self.store = store
        self.shard = shard
        self.holder = holder
        self.index = index
        self.dedup_cfg = dedup_cfg or settings.guards.dedup
        self.relay_id = f"{settings.review.redis_prefix}:{shard}"
        self.transactional_id = f"{settings.consumer_group}.review-relay.{shard}"
        self.position_topic = settings.topics.name(POSITION_TOPIC)
        self._outbox = store.keys.outbox(shard)
        self._lease_key = store.keys.lease(shard)
        self._lease = _Script(lua.LEASE)
        self._release = _Script(lua.RELEASE)
        self._producer: Producer | None = None
        self._errors: kafka.ClientErrors | None = None
        self._lease_due = 0.0
        self.position: str | None = None
        self.relayed = 0
        self.state = "starting"
        self.last_commit: float | None = None

    # -- lifecycle -----------------------------------------------------------------
    async def run(self, stop: asyncio.Event) -> None:
        backoff = _BACKOFF_MIN_S
        try:
            while not stop.is_set():
                try:
                    if not await self._take_lease():
                        self.state = "standby"
                        await _sleep(stop, self.settings.review.relay_lease_s / 3)
                        continue
                    await self._connect(stop)
                    backoff = _BACKOFF_MIN_S
                    await self._pump(stop)
                except LeaseLost:
                    log.warning("review relay %s: lease lost", self.relay_id)
                    self._drop()
                except (KafkaException, kafka.KafkaClientFailure, OSError) as exc:
                    self.state = "rebuilding"
                    log.error("review relay %s: %s; rebuilding", self.relay_id, exc)
                    self._drop()
                    await _sleep(stop, backoff)
                    backoff = min(_BACKOFF_MAX_S, backoff * 2)
                except Exception:  # Redis down, dedup index down, a bug: retry, never die
                    self.state = "retrying"
                    log.exception("review relay %s failed; retrying", self.relay_id)
                    await _sleep(stop, backoff)
                    backoff = min(_BACKOFF_MAX_S, backoff * 2)
        finally:
            self.state = "stopping"
            await asyncio.to_thread(self._close)
            with contextlib.suppress(Exception):
                await self._release(self.store.client, [self._lease_key], [self.holder])

    async def _take_lease(self) -> bool:
        ttl_ms = int(self.settings.review.relay_lease_s * 1000)
        got = await self._lease(self.store.client, [self._lease_key], [self.holder, ttl_ms])
        if got:
            self._lease_due = time.monotonic() + self.settings.review.relay_lease_s / 3
        return bool(got)

    async def _renew(self) -> None:
        if time.monotonic() >= self._lease_due and not await self._take_lease():
            raise LeaseLost()

    async def _connect(self, stop: asyncio.Event) -> None:
        if self._producer is not None:
            return
        self.state = "starting"
        errors = kafka.ClientErrors(self.settings.bootstrap_servers)
        producer = kafka.transactional_producer(self.settings, self.transactional_id, errors)
        timeout = self.settings.kafka_call_timeout_s
        while not stop.is_set():
            try:
                # Fences an earlier relay of this shard and aborts what it left open, so the
                # position read next is final.
                await asyncio.to_thread(producer.init_transactions, timeout)
                break
            except KafkaException as exc:
                producer.poll(0)
                errors.check()
                err = exc.args[0]
                if isinstance(err, KafkaError) and err.fatal():
                    raise
                log.warning("review relay %s: init_transactions: %s", self.relay_id, err)
                await _sleep(stop, _BACKOFF_MIN_S)
        self.position = await asyncio.to_thread(self._read_position)
        self._producer, self._errors = producer, errors
        self.state = "running"
        log.info("review relay %s running from position %s", self.relay_id, self.position)

    def _read_position(self) -> str | None:
        """The last committed position of this relay: the latest value under its key in
        the compacted position topic, read to its end with read_committed."""
        consumer = kafka.consumer(
            self.settings,
            group_id=f"{self.settings.consumer_group}.review-relay-position",
            enable_auto_commit=False,
            isolation_level="read_committed",
            enable_partition_eof=True,
        )
        try:
            meta = consumer.list_topics(
                self.position_topic, timeout=self.settings.kafka_call_timeout_s
            )
            topic = meta.topics.get(self.position_topic)
            if topic is None or topic.error is not None:
                raise KafkaException(
                    topic.error if topic is not None else f"{self.position_topic} missing"
                )
            parts = [TopicPartition(self.position_topic, p, -2) for p in topic.partitions]
            consumer.assign(parts)
            pending = {p.partition for p in parts}
            found: str | None = None
            key = self.relay_id.encode()
            deadline = time.monotonic() + self.settings.kafka_call_timeout_s
            while pending:
                if time.monotonic() > deadline:
                    raise KafkaException(f"reading {self.position_topic} timed out")
                for msg in consumer.consume(500, 0.5):
                    err = msg.error()
                    if err is not None:
                        if err.code() == KafkaError._PARTITION_EOF:
                            pending.discard(msg.partition() or 0)
                            continue
                        raise KafkaException(err)
                    if msg.key() == key and msg.value():
                        found = (msg.value() or b"").decode()
            return found
        finally:
            consumer.close()

    def _drop(self) -> None:
        self._producer = None  # fenced by the next incarnation's init_transactions
        self._errors = None

    def _close(self) -> None:
        if self._producer is not None:
            self._producer.flush(5)
        self._drop()

    # -- the loop ------------------------------------------------------------------
    async def _pump(self, stop: asyncio.Event) -> None:
        client = self.store.client
        batch = self.settings.review.relay_batch
        idle = self.settings.review.relay_idle_s
        while not stop.is_set():
            await self._renew()
            low = f"({self.position}" if self.position else "-"
            raw = await client.xrange(self._outbox, min=low, max="+", count=batch)
            if not raw:
                await _sleep(stop, idle)
                continue
            entries = [_entry(r) for r in raw]
            await self._relay(entries)

    async def _relay(self, entries: Sequence[Entry]) -> None:
        outputs: list[Output] = []
        for entry in entries:
            duplicate_of = await self._apply_to_index(entry)
            outputs.extend(outputs_of(self.settings, entry, duplicate_of))
        last = entries[-1].id
        await asyncio.to_thread(self._transact, outputs, last)
        faults.point("relay.after_commit")
        self.position = last
        self.relayed += len(entries)
        self.last_commit = time.monotonic()
        review_metrics.observe_relay_commit()
        for entry in entries:
            review_metrics.observe_audited(ReviewAction(entry.get("a")))
        await self.store.client.xdel(self._outbox, *(e.id for e in entries))

    async def _apply_to_index(self, entry: Entry) -> str | None:
        action = entry.get("a")
        if self.index is None or action not in ("approve", "reject"):
            return None
        claim = RoutedResult.model_validate_json(entry.get("d")).claim
        if action == "approve":
            return await memory_index.admit(self.index, self.dedup_cfg, claim)
        await memory_index.discard(self.index, claim)
        return None

    def _transact(self, outputs: list[Output], last: str) -> None:
        producer = self._producer
        if producer is None:
            raise KafkaException("relay producer is not connected")
        timeout = self.settings.kafka_call_timeout_s
        producer.begin_transaction()
        try:
            for out in outputs:
                kafka.produce(
                    producer,
                    out.topic,
                    out.value,
                    out.key,
                    headers=list(out.headers) or None,
                    errors=self._errors,
                )
            faults.point("relay.after_produce")
            kafka.produce(producer, self.position_topic, last.encode(), self.relay_id.encode())
            faults.point("relay.before_commit")
            producer.commit_transaction(timeout)
        except KafkaException as exc:
            err = exc.args[0]
            if isinstance(err, KafkaError) and err.txn_requires_abort():
                with contextlib.suppress(KafkaException):
                    producer.abort_transaction(timeout)
            raise


async def _sleep(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
