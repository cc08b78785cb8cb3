"""The consume-transform-produce loop every stage runs, inside Kafka transactions.

Why transactions and not at-least-once plus dedup: a crash between "output acknowledged"
and "offset committed" replays the batch, and an at-least-once stage would write a second
approved copy. Here the outputs of a batch and the consumer offsets that produced them
commit in one Kafka transaction (KIP-447: offsets sent with the consumer's group metadata,
so a zombie from an older group generation is fenced). Readers use read_committed; an
aborted or never-committed batch is invisible to them and is simply processed again.

Restart speed matters as much as correctness: the transactional.id and the consumer's
group.instance.id are derived from the stable worker id, so a worker restarted after
SIGKILL fences its own dead transaction at once and takes its partitions back without
waiting for a session timeout.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, TopicPartition

from groundwire.streams import kafka, telemetry
from groundwire.streams.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Output:
    topic: str
    key: bytes | None
    value: bytes
    headers: tuple[tuple[str, bytes], ...] = ()


class Stage(Protocol):
    """One step of the pipeline: a batch of input records in, output records out.

    `process` must return at least one output per input record (the stage guarantees
    nothing is dropped silently) and must not raise on bad input; an exception is treated
    as a transient failure and the whole batch is retried.
    """

    name: str
    source_topic: str

    async def process(self, messages: Sequence[Message]) -> list[Output]: ...

    async def close(self) -> None: ...


class StageRunner:
    """Runs one stage until `stop` is set. Blocking librdkafka calls run in threads."""

    def __init__(self, settings: Settings, stage: Stage, stop: asyncio.Event) -> None:
        self.settings = settings
        self.stage = stage
        self.stop = stop
        self.processed = 0
        self._assignment: list[TopicPartition] = []
        group = f"{settings.consumer_group}.{stage.name}"
        instance = f"{settings.worker_id}.{stage.name}"
        self.group = group
        self.consumer = kafka.transactional_consumer(settings, group, instance)
        self.producer = kafka.transactional_producer(settings, f"{group}.{settings.worker_id}")

    # -- lifecycle -----------------------------------------------------------------
    async def run(self) -> None:
        await asyncio.to_thread(self.producer.init_transactions, 60)
        self.consumer.subscribe(
            [self.stage.source_topic], on_assign=self._on_assign, on_revoke=self._on_revoke
        )
        log.info(
            "stage %s consuming %s as %s", self.stage.name, self.stage.source_topic, self.group
        )
        lag_due = 0.0
        try:
            while not self.stop.is_set():
                messages = await asyncio.to_thread(
                    self.consumer.consume, self.settings.batch_size, self.settings.batch_within_s
                )
                records = [m for m in messages if not self._is_error(m)]
                if records:
                    await self._process_batch(records)
                now = time.monotonic()
                if now >= lag_due:
                    lag_due = now + 10.0
                    await asyncio.to_thread(self._report_lag)
        finally:
            await self.stage.close()
            await asyncio.to_thread(self._close)

    def _close(self) -> None:
        try:
            self.producer.flush(10)
        finally:
            # close() leaves the group; with static membership the broker would otherwise
            # keep our partitions until session timeout.
            self.consumer.close()

    def _on_assign(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        self._assignment = list(partitions)
        log.info("stage %s assigned %s", self.stage.name, [p.partition for p in partitions])

    def _on_revoke(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        revoked = {(p.topic, p.partition) for p in partitions}
        self._assignment = [p for p in self._assignment if (p.topic, p.partition) not in revoked]

    def _is_error(self, message: Message) -> bool:
        err = message.error()
        if err is None:
            return False
        if err.code() != KafkaError._PARTITION_EOF:
            log.warning("stage %s consumer error: %s", self.stage.name, err)
        return True

    # -- one batch, one transaction ------------------------------------------------
    async def _process_batch(self, records: list[Message]) -> None:
        started = time.perf_counter()
        try:
            outputs = await self.stage.process(records)
        except Exception:
            log.exception(
                "stage %s failed on a batch of %d; retrying it", self.stage.name, len(records)
            )
            await asyncio.to_thread(self._rewind, records)
            await asyncio.sleep(1.0)
            return
        produce_started = time.perf_counter()
        try:
            self.producer.begin_transaction()
            for out in outputs:
                self._produce(out)
            offsets = _next_offsets(records)
            self.producer.send_offsets_to_transaction(
                offsets, self.consumer.consumer_group_metadata(), 30
            )
            await asyncio.to_thread(self.producer.commit_transaction, 60)
        except KafkaException as exc:
            await asyncio.to_thread(self._recover, exc, records)
            return
        self.processed += len(records)
        finished = time.perf_counter()
        log.debug(
            "stage %s: batch=%d process=%.1fms commit=%.1fms",
            self.stage.name,
            len(records),
            (produce_started - started) * 1e3,
            (finished - produce_started) * 1e3,
        )
        telemetry.stage_latency("produce", finished - produce_started)
        telemetry.stage_latency(self.stage.name, time.perf_counter() - started)

    def _produce(self, out: Output) -> None:
        kafka.produce(
            self.producer, out.topic, out.value, out.key, headers=list(out.headers) or None
        )

    def _recover(self, exc: KafkaException, records: list[Message]) -> None:
        err = exc.args[0]
        if isinstance(err, KafkaError) and err.fatal():
            log.critical("stage %s: fatal producer error (fenced?): %s", self.stage.name, err)
            raise exc
        log.warning(
            "stage %s: transaction failed (%s); aborting and replaying", self.stage.name, err
        )
        try:
            self.producer.abort_transaction(30)
        except KafkaException as abort_exc:
            log.error("stage %s: abort failed: %s", self.stage.name, abort_exc)
            raise
        self._rewind(records)

    def _rewind(self, records: list[Message]) -> None:
        """Seek back to the first record of the batch so it is processed again."""
        first: dict[tuple[str, int], int] = {}
        for m in records:
            tp = (m.topic(), m.partition())
            first[tp] = min(first.get(tp, m.offset()), m.offset())
        for (topic, partition), offset in first.items():
            try:
                self.consumer.seek(TopicPartition(topic, partition, offset))
            except KafkaException as exc:  # partition revoked meanwhile: its new owner replays
                log.info(
                    "stage %s: seek %s[%d] skipped: %s", self.stage.name, topic, partition, exc
                )

    def _report_lag(self) -> None:
        assignment = list(self._assignment)
        if not assignment:
            return
        try:
            positions = self.consumer.position(assignment)
        except KafkaException:
            return
        for tp in positions:
            try:
                _low, high = self.consumer.get_watermark_offsets(tp, timeout=2, cached=False)
            except KafkaException:
                continue
            if tp.offset >= 0:
                telemetry.consumer_lag(self.group, tp.topic, tp.partition, max(0, high - tp.offset))


def _next_offsets(records: Sequence[Message]) -> list[TopicPartition]:
    last: dict[tuple[str, int], int] = {}
    for m in records:
        tp = (m.topic(), m.partition())
        last[tp] = max(last.get(tp, -1), m.offset())
    return [TopicPartition(t, p, o + 1) for (t, p), o in last.items()]
