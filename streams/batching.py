"""How a stage takes its next batch from the consumer: as much as has arrived, at once.

A fixed batching rule trades one end of the load range for the other. Waiting to fill a
batch (librdkafka's `consume(n, timeout)` returns when `n` records are there or the
timeout passes) adds the whole timeout to every claim's latency when input is light, and
a small batch size pays one transaction per few records when input is heavy.

Taking what the client has already fetched, without waiting for more, adapts by itself:
under light input a batch is the few records that came in while the last one was being
processed and committed (latency stays close to the processing time), and under heavy
input the fetched queue is always deep, so every batch is full (`max_records`) and the
per-transaction cost is spread over the most claims. Only an idle stage waits, and then
only for the first record (`idle_wait_s`), so the loop still comes round for its health
and lag reports.

The linger (a batch that is not full waiting for more, `linger_s`) spreads a
transaction's fixed cost over more records at a moderate rate, at the price of that
wait in every claim's latency. It is worth its wait only while it can still grow the
batch by a useful share: the records in hand came in over the time since the stage
closed its previous batch, and a linger adds about linger / that time more. So a stage
whose previous batch closed more than `BEHIND_AFTER_LINGERS` lingers ago takes what it
has at once: it is behind its input (a slow batch, a busy core: these claims are the
tail of the latency, and waiting would add under a quarter to a batch that is already
large), or it was idle and a claim arrived after a pause (light input: the linger would
gather next to nothing). A stage that keeps up (the usual moderate rate) lingers as
before, so its batches, and the CPU a claim costs, stay as they were
(bench/results/pipeline.md, session 17).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from confluent_kafka import Message


class BatchSource(Protocol):
    """The one consumer call batching needs (confluent_kafka.Consumer has it)."""

    def consume(self, num_messages: int = 1, timeout: float = -1) -> list[Message]: ...


@dataclass(slots=True)
class BatchClock:
    """Where one `take_batch` call's time went, for the stage's debug line that splits a
    claim's latency (waiting for input, lingering, processing, committing)."""

    lingered_s: float = 0.0  # waiting for more once the batch had a record
    closed_at: float = 0.0  # time.time() when the batch was handed over


# A stage whose previous batch closed more than this many lingers ago does not linger:
# the linger could add at most 1/4 to what it has, and its claims have waited already.
BEHIND_AFTER_LINGERS = 4.0


def linger_for(linger_s: float, previous_closed: float | None, now: float) -> float:
    """How long a batch that is not full waits for more, in seconds: `linger_s`, or 0
    when the previous batch closed (`previous_closed`, time.monotonic()) more than
    BEHIND_AFTER_LINGERS lingers before `now` (behind, or after a pause); the whole
    linger when no batch closed before."""
    if previous_closed is not None and now - previous_closed > BEHIND_AFTER_LINGERS * linger_s:
        return 0.0
    return linger_s


def take_batch(
    source: BatchSource,
    max_records: int,
    idle_wait_s: float,
    linger_s: float = 0.0,
    clock: BatchClock | None = None,
    previous_closed: float | None = None,
) -> list[Message]:
    """Up to `max_records` records (and consumer events) that have already arrived; when
    none has, wait up to `idle_wait_s` for the first, then take whatever came with it.
    A batch that is not full then waits up to `linger_s` more for records to fill it,
    unless the caller's previous batch closed (`previous_closed`, time.monotonic(); None:
    no batch before) too long ago for the linger to pay (`linger_for`). `clock`, when
    given, is filled in with the time spent lingering and when the batch closed.
    Blocking: the runner calls it in a thread."""
    batch = source.consume(max_records, 0)
    if not batch:
        batch = source.consume(1, idle_wait_s)
        if batch and max_records > 1:
            # The first arrival usually comes in one fetch response with its neighbours.
            batch += source.consume(max_records - 1, 0)
    if batch and linger_s > 0 and len(batch) < max_records:
        started = time.monotonic()
        linger = linger_for(linger_s, previous_closed, started)
        if linger > 0:
            batch += source.consume(max_records - len(batch), linger)
        if clock is not None:
            clock.lingered_s = time.monotonic() - started
    if clock is not None:
        clock.closed_at = time.time()
    return batch
