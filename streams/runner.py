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

Liveness is the third property, and brokers fail in ways that leave clients unusable
rather than erroring: a fenced static member, a fatal transactional error, a transaction
the coordinator timed out while the broker was away. The runner therefore
* runs every blocking librdkafka call in a thread, so the event loop (signals, health,
  lag) never stops;
* aborts and replays on abortable errors, and on fatal ones throws both clients away and
  builds new ones, which resume from the committed offsets (the new producer fences the
  old transactional id, so nothing half-written survives);
* isolates a record whose processing keeps failing and dead-letters it, so one poison
  record never blocks the records behind it;
* keeps `progress` (last commit, input lag, state) that the worker's watchdog turns into
  health, and into a restart when a stage with input stops committing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition
from redis import exceptions as redis_errors

from groundwire.streams import kafka, telemetry
from groundwire.streams.batching import BatchClock, take_batch
from groundwire.streams.settings import Settings

log = logging.getLogger(__name__)

# Back-off between rebuilds of broken clients, and between replays of a failing batch.
_BACKOFF_MIN_S = 0.5
_BACKOFF_MAX_S = 5.0
_LAG_EVERY_S = 5.0


@dataclass(frozen=True, slots=True)
class Output:
    topic: str
    key: bytes | None
    value: bytes | None  # None: a tombstone (compacted topics: the key's record is deleted)
    headers: tuple[tuple[str, bytes], ...] = ()


class Stage(Protocol):
    """One step of the pipeline: a batch of input records in, output records out.

    `process` must return at least one output per input record (the stage guarantees
    nothing is dropped silently) and must not raise on bad input: a producer's mistake is
    a dlq record with a reason. An exception is a fault: the runner retries, then
    isolates the record that keeps failing and asks `dead_letter` for its dlq record.
    """

    name: str
    source_topic: str
    # A stage may read several topics (the memory stage: approved, blocked and
    # memories.commands) by naming them all here; the runner subscribes to
    # `source_topics` when the stage has it, else to `source_topic`.

    async def process(self, messages: Sequence[Message]) -> list[Output]: ...

    def dead_letter(self, message: Message, reason: str, detail: str) -> Output: ...

    async def close(self) -> None: ...


class ClientsBroken(Exception):
    """The consumer or producer cannot go on (fatal error, fenced, failed abort)."""


@dataclass(slots=True)
class Progress:
    """What the watchdog and the health endpoint read. Times are time.monotonic()."""

    state: str = "starting"  # starting | running | rebuilding | stopping
    started: float = field(default_factory=time.monotonic)
    state_since: float = field(default_factory=time.monotonic)
    problem: str = ""  # the last reason the clients were rebuilt, for /healthz
    last_commit: float | None = None
    last_loop: float = field(default_factory=time.monotonic)
    lag: int | None = None  # records behind on the assigned partitions; None = unknown
    committed_records: int = 0
    rebuilds: int = 0

    def idle_since(self) -> float:
        return self.last_commit if self.last_commit is not None else self.started

    def enter(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self.state_since = time.monotonic()


class StageRunner:
    """Runs one stage until `stop` is set, rebuilding its clients when they break."""

    def __init__(self, settings: Settings, stage: Stage, stop: asyncio.Event) -> None:
        self.settings = settings
        self.stage = stage
        self.stop = stop
        self.group = f"{settings.consumer_group}.{stage.name}"
        self._instance = f"{settings.worker_id}.{stage.name}"
        self._transactional_id = f"{self.group}.{settings.worker_id}"
        self.progress = Progress()
        self._assignment: list[TopicPartition] = []
        self._consumer: Consumer | None = None
        self._producer: Producer | None = None
        self._errors: kafka.ClientErrors | None = None
        self._call_timeout_s = settings.kafka_call_timeout_s
        # Filled by take_batch for the debug line of each batch (None: debug is off).
        self._clock: BatchClock | None = None
        # time.monotonic() when the last batch was taken: a stage long past it (behind its
        # input, or idle until now) takes its next batch without lingering.
        self._previous_closed: float | None = None

    @property
    def processed(self) -> int:
        return self.progress.committed_records

    # -- lifecycle -----------------------------------------------------------------
    async def run(self) -> None:
        backoff = _BACKOFF_MIN_S
        try:
            while not self.stop.is_set():
                try:
                    await self._connect()
                    backoff = _BACKOFF_MIN_S
                    await self._loop()
                except ClientsBroken as exc:
                    self.progress.enter("rebuilding")
                    self.progress.problem = str(exc)
                    self.progress.rebuilds += 1
                    telemetry.stage_rebuilt(self.stage.name)
                    log.error("stage %s: %s; rebuilding its Kafka clients", self.stage.name, exc)
                    await asyncio.to_thread(self._drop_clients)
                    await self._sleep(backoff)
                    backoff = min(_BACKOFF_MAX_S, backoff * 2)
        finally:
            self.progress.enter("stopping")
            await self.stage.close()
            await asyncio.to_thread(self._close_clients)

    async def _connect(self) -> None:
        """New clients; init_transactions fences any earlier producer of this id and
        aborts what it left open. Retries until the broker answers or `stop`."""
        if self.progress.state != "rebuilding":
            self.progress.enter("starting")
        errors = kafka.ClientErrors(self.settings.bootstrap_servers)
        self._errors = errors
        producer = kafka.transactional_producer(self.settings, self._transactional_id, errors)
        while not self.stop.is_set():
            try:
                await asyncio.to_thread(producer.init_transactions, self._call_timeout_s)
                break
            except KafkaException as exc:
                err = exc.args[0]
                producer.poll(0)  # serve error_cb: an authentication failure shows there
                self._raise_if_terminal()
                log.warning("stage %s: init_transactions: %s", self.stage.name, err)
                if isinstance(err, KafkaError) and err.fatal():
                    raise ClientsBroken(f"init_transactions failed fatally: {err}") from exc
                await self._sleep(_BACKOFF_MIN_S)
        self._producer = producer
        consumer = kafka.transactional_consumer(self.settings, self.group, self._instance, errors)
        topics = list(getattr(self.stage, "source_topics", None) or [self.stage.source_topic])
        consumer.subscribe(topics, on_assign=self._on_assign, on_revoke=self._on_revoke)
        self._consumer = consumer
        self.progress.enter("running")
        self.progress.problem = ""
        log.info("stage %s consuming %s as %s", self.stage.name, ",".join(topics), self.group)

    async def _loop(self) -> None:
        lag_due = 0.0
        while not self.stop.is_set():
            self.progress.last_loop = time.monotonic()
            records = await self._consume()
            if records:
                await self._process_batch(records)
            now = time.monotonic()
            if now >= lag_due:
                lag_due = now + _LAG_EVERY_S
                await asyncio.to_thread(self._report_lag)

    async def _consume(self) -> list[Message]:
        consumer = self._clients()[0]
        self._clock = BatchClock() if log.isEnabledFor(logging.DEBUG) else None
        try:
            messages = await asyncio.to_thread(
                take_batch,
                consumer,
                self.settings.batch_size,
                self.settings.batch_within_s,
                self.settings.batch_linger_s,
                self._clock,
                self._previous_closed,
            )
        except KafkaException as exc:
            self._raise_if_fatal(exc.args[0], "consume")
            log.warning("stage %s: consume failed: %s", self.stage.name, exc)
            return []
        if messages:
            self._previous_closed = time.monotonic()
        records = []
        for m in messages:
            err = m.error()
            if err is None:
                records.append(m)
            elif err.code() != KafkaError._PARTITION_EOF:
                self._raise_if_fatal(err, "consumer")
                log.warning("stage %s consumer error: %s", self.stage.name, err)
        self._raise_if_terminal()
        return records

    def _raise_if_terminal(self) -> None:
        """Credentials refused or TLS failed: say so clearly (retries go on, with back-off,
        in case the secret is being rotated; /healthz turns unhealthy meanwhile)."""
        message = self._errors.message() if self._errors is not None else None
        if message is not None:
            log.error("stage %s: %s", self.stage.name, message)
            raise ClientsBroken(message)

    def _raise_if_fatal(self, err: object, where: str) -> None:
        if isinstance(err, KafkaError) and err.fatal():
            raise ClientsBroken(f"{where}: fatal error {err}")

    def _clients(self) -> tuple[Consumer, Producer]:
        if self._consumer is None or self._producer is None:
            raise ClientsBroken("clients are not connected")
        return self._consumer, self._producer

    def _drop_clients(self) -> None:
        """Throw broken clients away without waiting on a broker that may be gone."""
        consumer, self._consumer = self._consumer, None
        self._producer = None  # freed by refcount; its transaction is fenced by the next one
        self._assignment = []
        if consumer is not None:
            try:
                consumer.close()
            except (KafkaException, RuntimeError) as exc:
                log.info("stage %s: closing the old consumer: %s", self.stage.name, exc)

    def _close_clients(self) -> None:
        if self._producer is not None:
            self._producer.flush(10)
        self._drop_clients()

    async def _sleep(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stop.wait(), seconds)

    def _on_assign(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        self._assignment = list(partitions)
        log.info("stage %s assigned %s", self.stage.name, [p.partition for p in partitions])

    def _on_revoke(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        revoked = {(p.topic, p.partition) for p in partitions}
        self._assignment = [p for p in self._assignment if (p.topic, p.partition) not in revoked]

    # -- one batch, one transaction ------------------------------------------------
    async def _process_batch(self, records: list[Message]) -> None:
        started = time.perf_counter()
        outputs = await self._outputs(records)
        if outputs is None:  # every record failed: a fault, not a poison record
            await asyncio.to_thread(self._rewind, records)
            await self._sleep(_BACKOFF_MAX_S)
            return
        produce_started = time.perf_counter()
        if not await self._commit(outputs, records):
            return
        finished = time.perf_counter()
        self.progress.last_commit = time.monotonic()
        self.progress.committed_records += len(records)
        telemetry.stage_committed(self.stage.name, len(records))
        clock = self._clock
        if clock is not None:
            log.debug(
                "stage %s: batch=%d process=%.1fms commit=%.1fms linger=%.1fms %s closed=%.4f",
                self.stage.name,
                len(records),
                (produce_started - started) * 1e3,
                (finished - produce_started) * 1e3,
                clock.lingered_s * 1e3,
                _ages(records, clock.closed_at),
                clock.closed_at,
            )
        telemetry.stage_latency("produce", finished - produce_started)
        telemetry.stage_latency(self.stage.name, time.perf_counter() - started)

    async def _outputs(self, records: list[Message]) -> list[Output] | None:
        """The batch's outputs; when processing raises, each record is retried alone and
        the ones that keep failing are dead-lettered. None when the cause is not the
        records, and the batch is replayed after a pause instead of being dead-lettered:
        a dependency that is unreachable (Redis down, a connection refused or timed out:
        `is_outage`), or every record of a batch of several failing (a bug). Without the
        first rule a batch of one record that met a Redis outage went to the dlq, and the
        claim behind it never became a memory."""
        try:
            return await self.stage.process(records)
        except Exception as exc:
            if is_outage(exc):
                self._outage(exc, len(records))
                return None
            log.exception(
                "stage %s failed on a batch of %d; retrying each record alone",
                self.stage.name,
                len(records),
            )
        outputs: list[Output] = []
        failed = 0
        for message in records:
            error: Exception | None = None
            for attempt in range(self.settings.record_max_attempts):
                try:
                    outputs.extend(await self.stage.process([message]))
                    error = None
                    break
                except Exception as exc:
                    if is_outage(exc):  # the dependency went away meanwhile: all wait
                        self._outage(exc, len(records))
                        return None
                    error = exc
                    await self._sleep(0.05 * (attempt + 1))
            if error is not None:
                failed += 1
                outputs.append(self._poison(message, error))
        if failed == len(records) and len(records) > 1:
            return None
        return outputs

    def _outage(self, exc: BaseException, n: int) -> None:
        log.warning(
            "stage %s: a dependency is unavailable (%s: %s); the batch of %d is processed "
            "again after a pause",
            self.stage.name,
            type(exc).__name__,
            str(exc)[:200],
            n,
        )

    def _poison(self, message: Message, error: Exception) -> Output:
        attempts = self.settings.record_max_attempts
        log.error(
            "stage %s: %s[%d]@%d failed %d times (%s); sent to the dlq",
            self.stage.name,
            message.topic(),
            message.partition(),
            message.offset(),
            attempts,
            type(error).__name__,
        )
        detail = f"{type(error).__name__} in stage {self.stage.name} after {attempts} attempts"
        return self.stage.dead_letter(message, "processing_failed", detail)

    async def _commit(self, outputs: list[Output], records: list[Message]) -> bool:
        """Outputs and offsets in one transaction; False when it was aborted (the batch
        is rewound and will be processed again)."""
        consumer, producer = self._clients()
        offsets = _next_offsets(records)
        timeout = self._call_timeout_s

        def transact() -> None:
            producer.begin_transaction()
            for out in outputs:
                kafka.produce(
                    producer, out.topic, out.value, out.key, headers=list(out.headers) or None
                )
            producer.send_offsets_to_transaction(
                offsets, consumer.consumer_group_metadata(), timeout
            )
            producer.commit_transaction(timeout)

        try:
            await asyncio.to_thread(transact)
            return True
        except KafkaException as exc:
            err = exc.args[0]
            self._raise_if_fatal(err, "transaction")
            log.warning(
                "stage %s: transaction failed (%s); aborting and replaying", self.stage.name, err
            )
        await asyncio.to_thread(self._abort, producer)
        await asyncio.to_thread(self._rewind, records)
        await self._sleep(_BACKOFF_MIN_S)
        return False

    def _abort(self, producer: Producer) -> None:
        try:
            producer.abort_transaction(self._call_timeout_s)
        except KafkaException as exc:
            # The transaction state is unknown: only new clients (whose producer fences
            # this one) restore a known state.
            raise ClientsBroken(f"abort failed: {exc.args[0]}") from exc

    def _rewind(self, records: list[Message]) -> None:
        """Seek back to the first record of the batch so it is processed again."""
        consumer = self._consumer
        if consumer is None:
            return
        first: dict[tuple[str, int], int] = {}
        for m in records:
            topic, partition, offset = kafka.coordinates(m)
            first[topic, partition] = min(first.get((topic, partition), offset), offset)
        for (topic, partition), offset in first.items():
            try:
                consumer.seek(TopicPartition(topic, partition, offset))
            except KafkaException as exc:  # partition revoked meanwhile: its new owner replays
                log.info(
                    "stage %s: seek %s[%d] skipped: %s", self.stage.name, topic, partition, exc
                )

    def _report_lag(self) -> None:
        consumer = self._consumer
        assignment = list(self._assignment)
        if consumer is None:
            return
        if not assignment:
            self.progress.lag = 0
            telemetry.stage_lag(self.stage.name, 0)
            return
        try:
            positions = consumer.position(assignment)
        except KafkaException:
            return
        total = 0
        for tp in positions:
            try:
                marks = _watermarks(consumer, tp)
            except KafkaException:
                return  # broker unreachable: keep the last known lag
            if marks is None:
                return  # not fetched yet: keep the last known lag
            low, high = marks
            position = tp.offset if tp.offset >= 0 else low
            lag = max(0, high - position)
            total += lag
            telemetry.consumer_lag(self.group, tp.topic, tp.partition, lag)
        self.progress.lag = total
        telemetry.stage_lag(self.stage.name, total)


def _ages(records: Sequence[Message], closed_at: float) -> str:
    """How long the batch's records had been in their topic when the batch closed (their
    timestamps against `closed_at`, both wall clock): mean and oldest, in ms. For the
    first stage that is the wait since the claim was published; for the next, since the
    stage before it wrote the record (its commit, the fetch, the wait for this batch)."""
    ages = [closed_at * 1e3 - m.timestamp()[1] for m in records if m.timestamp()[1] > 0]
    if not ages:
        return "age_mean=nan age_max=nan"
    return f"age_mean={sum(ages) / len(ages):.1f}ms age_max={max(ages):.1f}ms"


def _watermarks(consumer: Consumer, tp: TopicPartition) -> tuple[int, int] | None:
    """A partition's low and high offsets as the consumer's last fetch response gave them;
    None before the first fetch. Never a broker round trip: one waits behind the
    connection's long-poll fetch, and asking per partition each lag report stopped the
    stage loop for ~3 s of every 5 (bench/results/pipeline.md, session 2 §The lag-report
    stall), and for a second or more before a restarted stage's first batch."""
    low, high = consumer.get_watermark_offsets(tp, cached=True)
    return None if low < 0 or high < 0 else (low, high)


# Errors that say a dependency is away, not that a record is bad: redis-py's connection
# and timeout errors (and a cluster that is failing over), and the OS's (refused, reset,
# timed out). A record that meets one of these is never dead-lettered.
_OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    redis_errors.ConnectionError,
    redis_errors.TimeoutError,
    redis_errors.BusyLoadingError,
    redis_errors.ClusterDownError,
    redis_errors.TryAgainError,
    redis_errors.MasterDownError,
    redis_errors.ReadOnlyError,
    OSError,
)


def is_outage(exc: BaseException) -> bool:
    """True when `exc`, or an exception it was raised from (`raise ... from`), is a
    dependency outage."""
    seen: BaseException | None = exc
    for _ in range(8):  # the chain of causes, bounded
        if seen is None:
            return False
        if isinstance(seen, _OUTAGE_ERRORS):
            return True
        seen = seen.__cause__
    return False


def _next_offsets(records: Sequence[Message]) -> list[TopicPartition]:
    last: dict[tuple[str, int], int] = {}
    for m in records:
        topic, partition, offset = kafka.coordinates(m)
        last[topic, partition] = max(last.get((topic, partition), -1), offset)
    return [TopicPartition(t, p, o + 1) for (t, p), o in last.items()]
