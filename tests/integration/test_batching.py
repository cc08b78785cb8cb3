"""Adaptive batching against a real broker: a deep backlog gives full batches, a trickle
gives small ones without waiting for a batch to fill."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from groundwire.streams import kafka
from groundwire.streams.batching import take_batch
from groundwire.streams.settings import Settings
from tests.support.names import RUN

pytestmark = pytest.mark.integration


def _topic(bootstrap: str) -> str:
    name = f"{RUN}.batching.{uuid.uuid4().hex[:10]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, num_partitions=1, replication_factor=1)])[name].result(30)
    return name


def _stage_consumer(bootstrap: str, topic: str) -> Consumer:
    """The consumer a stage uses (read_committed, the stage's fetch settings), assigned
    to the topic's one partition from the start."""
    settings = Settings(bootstrap_servers=bootstrap)
    consumer = kafka.transactional_consumer(settings, f"g-{uuid.uuid4().hex[:8]}", "i-0")
    consumer.assign([TopicPartition(topic, 0, 0)])
    return consumer


def _records(batch: list) -> list:
    return [m for m in batch if m.error() is None]


def test_a_backlog_is_taken_in_full_batches(bootstrap_servers: str) -> None:
    topic = _topic(bootstrap_servers)
    producer = Producer({"bootstrap.servers": bootstrap_servers, "linger.ms": 5})
    for i in range(1_200):
        producer.produce(topic, value=f"claim-{i}".encode())
    assert producer.flush(30) == 0
    consumer = _stage_consumer(bootstrap_servers, topic)
    try:
        sizes: list[int] = []
        seen: list[bytes] = []
        deadline = time.monotonic() + 30
        while len(seen) < 1_200 and time.monotonic() < deadline:
            batch = _records(take_batch(consumer, 500, 1.0))
            if batch:
                sizes.append(len(batch))
                seen += [m.value() for m in batch]
        # Nothing lost or repeated, in order, and never more than the batch size.
        assert seen == [f"claim-{i}".encode() for i in range(1_200)]
        assert max(sizes) == 500
        # Once the client has fetched ahead, the backlog comes in full batches, not a
        # record or a fetch response at a time.
        assert sizes.count(500) >= 2, sizes
    finally:
        consumer.close()


def _trickle(bootstrap: str, topic: str, prefix: str, n: int) -> threading.Thread:
    """Publish n records 300 ms apart from a thread (started)."""
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})

    def publish() -> None:
        for i in range(n):
            producer.produce(topic, value=f"{prefix}-{i}".encode())
            producer.flush(10)
            time.sleep(0.3)

    sender = threading.Thread(target=publish)
    sender.start()
    return sender


def test_a_trickle_is_taken_as_it_arrives(bootstrap_servers: str) -> None:
    topic = _topic(bootstrap_servers)
    consumer = _stage_consumer(bootstrap_servers, topic)
    try:
        # Caught up and idle: nothing to take once the idle wait has passed.
        assert _records(take_batch(consumer, 500, 0.5)) == []
        sender = _trickle(bootstrap_servers, topic, "late", 3)
        # A fixed rule (consume 500 within 20 s) would hand the three over together;
        # taking what has arrived hands each over on its own, as it comes.
        batches = [[m.value() for m in _records(take_batch(consumer, 500, 20.0))] for _ in "abc"]
        sender.join()
        assert batches == [[b"late-0"], [b"late-1"], [b"late-2"]]
    finally:
        consumer.close()


def test_a_linger_gathers_a_trickle_into_one_batch(bootstrap_servers: str) -> None:
    topic = _topic(bootstrap_servers)
    consumer = _stage_consumer(bootstrap_servers, topic)
    try:
        assert _records(take_batch(consumer, 500, 0.5)) == []  # caught up
        sender = _trickle(bootstrap_servers, topic, "slow", 5)
        # Without a linger the first record comes alone (the others are 300 ms apart);
        # with one of 3 s the next batch waits for the rest and holds all four.
        first = _records(take_batch(consumer, 500, 20.0))
        assert [m.value() for m in first] == [b"slow-0"]
        rest = _records(take_batch(consumer, 500, 20.0, linger_s=3.0))
        sender.join()
        assert [m.value() for m in rest] == [f"slow-{i}".encode() for i in range(1, 5)]
    finally:
        consumer.close()
