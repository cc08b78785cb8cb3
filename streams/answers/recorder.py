"""Writes the HTTP endpoint's scores to Kafka: `answers.scored` and `audit` of one request
in one transaction, requests grouped.

Why a transaction: a score must never reach `answers.scored` without its `audit` record
(or the other way round), and a request the client retries after a failed write must
leave nothing behind. Why grouped: a transaction costs a few broker round trips, so
each request paying for its own would cap the endpoint at a few hundred requests a
second on one producer; instead every request waiting when the writer is free joins the
next transaction ("group commit"). A request's call returns once its transaction has
committed, or raises `RecordFailed` (the endpoint answers 503 and nothing was written).

The transactional id is stable per service instance (`<group>.answers-api.<worker id>`),
so a restarted instance fences its predecessor's open transaction at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from confluent_kafka import KafkaError, KafkaException, Producer

from groundwire.streams import kafka
from groundwire.streams.runner import Output
from groundwire.streams.settings import Settings

log = logging.getLogger(__name__)

__all__ = ["RecordFailed", "Recorder"]

MAX_GROUP = 500  # requests per transaction


class RecordFailed(Exception):
    """The records were not committed (the broker is away, the transaction aborted)."""


@dataclass(slots=True)
class _Pending:
    outputs: Sequence[Output]
    done: asyncio.Future[None]


class Recorder:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.transactional_id = f"{settings.consumer_group}.answers-api.{settings.worker_id}"
        self._queue: asyncio.Queue[_Pending] = asyncio.Queue()
        self._producer: Producer | None = None
        self._timeout = settings.kafka_call_timeout_s
        self.state = "starting"  # starting | running | rebuilding | stopped

    async def record(self, outputs: Sequence[Output]) -> None:
        """Commit `outputs` in a transaction (shared with other waiting requests)."""
        if self.state == "stopped":
            raise RecordFailed("the recorder is stopped")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self._queue.put(_Pending(outputs, done))
        try:
            await asyncio.wait_for(asyncio.shield(done), self._timeout * 2)
        except TimeoutError:
            raise RecordFailed("timed out waiting for the Kafka transaction") from None

    async def run(self, stop: asyncio.Event) -> None:
        """Write queued requests until `stop`; fails what is still queued at the end."""
        try:
            while not stop.is_set():
                if self._producer is None and not await self._connect(stop):
                    continue
                batch = await self._take(stop)
                if batch:
                    await self._commit(batch)
        finally:
            self.state = "stopped"
            while not self._queue.empty():
                self._fail([self._queue.get_nowait()], "the recorder stopped")
            if self._producer is not None:
                await asyncio.to_thread(self._producer.flush, 5)

    async def _connect(self, stop: asyncio.Event) -> bool:
        producer = kafka.transactional_producer(self.settings, self.transactional_id)
        try:
            await asyncio.to_thread(producer.init_transactions, self._timeout)
        except KafkaException as exc:
            log.warning("answers recorder: init_transactions: %s", exc.args[0])
            self.state = "rebuilding"
            while not self._queue.empty():  # nobody waits minutes for a broker
                self._fail([self._queue.get_nowait()], "Kafka is unavailable")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)
            return False
        self._producer = producer
        self.state = "running"
        return True

    async def _take(self, stop: asyncio.Event) -> list[_Pending]:
        getter = asyncio.ensure_future(self._queue.get())
        stopper = asyncio.ensure_future(stop.wait())
        done, _ = await asyncio.wait({getter, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if getter not in done:
            getter.cancel()
            stopper.cancel()
            return []
        stopper.cancel()
        batch = [getter.result()]
        while len(batch) < MAX_GROUP and not self._queue.empty():
            batch.append(self._queue.get_nowait())
        return [p for p in batch if not p.done.done()]

    async def _commit(self, batch: list[_Pending]) -> None:
        producer = self._producer
        assert producer is not None
        timeout = self._timeout

        def transact() -> None:
            producer.begin_transaction()
            for pending in batch:
                for out in pending.outputs:
                    kafka.produce(
                        producer, out.topic, out.value or b"", out.key, headers=list(out.headers)
                    )
            producer.commit_transaction(timeout)

        try:
            await asyncio.to_thread(transact)
        except KafkaException as exc:
            err = exc.args[0]
            log.warning("answers recorder: transaction failed: %s", err)
            self._fail(batch, "the Kafka transaction failed")
            await self._abort(producer, err)
            return
        for pending in batch:
            if not pending.done.done():
                pending.done.set_result(None)

    async def _abort(self, producer: Producer, err: object) -> None:
        fatal = isinstance(err, KafkaError) and err.fatal()
        if not fatal:
            try:
                await asyncio.to_thread(producer.abort_transaction, self._timeout)
                return
            except KafkaException as exc:
                log.warning("answers recorder: abort failed: %s", exc.args[0])
        self._producer = None  # a new producer (same transactional id) fences this one
        self.state = "rebuilding"

    @staticmethod
    def _fail(batch: Sequence[_Pending], why: str) -> None:
        for pending in batch:
            if not pending.done.done():
                pending.done.set_exception(RecordFailed(why))
