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
"""

from __future__ import annotations

from typing import Protocol

from confluent_kafka import Message


class BatchSource(Protocol):
    """The one consumer call batching needs (confluent_kafka.Consumer has it)."""

    def consume(self, num_messages: int = 1, timeout: float = -1) -> list[Message]: ...


def take_batch(
    source: BatchSource, max_records: int, idle_wait_s: float, linger_s: float = 0.0
) -> list[Message]:
    """Up to `max_records` records (and consumer events) that have already arrived; when
    none has, wait up to `idle_wait_s` for the first, then take whatever came with it.
    A batch that is not full then waits up to `linger_s` more for records to fill it.
    Blocking: the runner calls it in a thread."""
    batch = source.consume(max_records, 0)
    if not batch:
        batch = source.consume(1, idle_wait_s)
        if batch and max_records > 1:
            # The first arrival usually comes in one fetch response with its neighbours.
            batch += source.consume(max_records - 1, 0)
    if batch and linger_s > 0 and len(batch) < max_records:
        batch += source.consume(max_records - len(batch), linger_s)
    return batch
