"""The lag a stage reports comes from its consumer's fetch responses, never from a broker
round trip that would stop the stage loop: unknown before the first fetch, right after."""

from __future__ import annotations

import time
import uuid

import pytest
from confluent_kafka import Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from groundwire.streams import kafka
from groundwire.streams.batching import take_batch
from groundwire.streams.runner import _watermarks
from groundwire.streams.settings import Settings
from tests.support.names import RUN

pytestmark = pytest.mark.integration


def _publish(bootstrap: str, topic: str, n: int) -> None:
    producer = Producer({"bootstrap.servers": bootstrap})
    for i in range(n):
        producer.produce(topic, value=f"r{i}".encode())
    assert producer.flush(30) == 0


def test_watermarks_before_and_after_fetching(bootstrap_servers: str) -> None:
    topic = f"{RUN}.lag.{uuid.uuid4().hex[:10]}"
    admin = AdminClient({"bootstrap.servers": bootstrap_servers})
    admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)])[topic].result(30)
    _publish(bootstrap_servers, topic, 40)
    settings = Settings(bootstrap_servers=bootstrap_servers)
    consumer = kafka.transactional_consumer(settings, f"g-{uuid.uuid4().hex[:8]}", "i-0")
    tp = TopicPartition(topic, 0, 0)
    try:
        # Nothing fetched yet: unknown (the stage keeps its last known lag), and no
        # broker round trip is made for it.
        assert _watermarks(consumer, tp) is None
        consumer.assign([tp])
        got = 0
        deadline = time.monotonic() + 30
        while got < 40 and time.monotonic() < deadline:
            got += len([m for m in take_batch(consumer, 500, 1.0) if m.error() is None])
        assert got == 40
        assert _watermarks(consumer, tp) == (0, 40)
        # More input arrives; the next fetch responses carry the new high watermark.
        _publish(bootstrap_servers, topic, 25)
        deadline = time.monotonic() + 30
        while _watermarks(consumer, tp)[1] != 65 and time.monotonic() < deadline:
            take_batch(consumer, 500, 0.2)
        assert _watermarks(consumer, tp) == (0, 65)
    finally:
        consumer.close()
