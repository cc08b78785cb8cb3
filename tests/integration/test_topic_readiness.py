"""`create_topics` reports a topic created only when every partition's leader serves it,
so a producer started right after cannot meet a leader that has not yet applied the new
partition (the window in which Kafka up to 4.4 drops an idempotent producer's first
records, KAFKA-15591)."""

from __future__ import annotations

import uuid

import pytest
from confluent_kafka import Producer

from groundwire.streams import kafka
from groundwire.streams.admin import create_topics, delete_topics, unled_partitions
from groundwire.streams.settings import Settings
from tests.support.names import RUN

pytestmark = pytest.mark.integration


def test_created_topics_are_served_by_their_leaders(bootstrap_servers: str) -> None:
    settings = Settings(
        bootstrap_servers=bootstrap_servers,
        topic_prefix=f"{RUN}.ready.{uuid.uuid4().hex[:8]}.",
        partitions=4,
    )
    try:
        outcomes = create_topics(settings)
        assert {o.status for o in outcomes} == {"created"}, outcomes
        admin = kafka.admin(settings)
        names = [(o.name, o.partitions) for o in outcomes]
        # every partition answers at once: nothing left to wait for
        assert unled_partitions(admin, names, 5.0) == set()
        # and an idempotent producer started now lands every record, in order, at
        # offsets from 0 on every partition
        producer = Producer(
            {"bootstrap.servers": bootstrap_servers, "enable.idempotence": True, "linger.ms": 0}
        )
        topic = settings.topics.claims
        delivered: list[tuple[int, int]] = []

        def on_delivery(err: object, msg: object) -> None:
            assert err is None, err
            delivered.append((msg.partition(), msg.offset()))  # type: ignore[attr-defined]

        for i in range(200):
            producer.produce(topic, value=b"x", partition=i % 4, on_delivery=on_delivery)
        assert producer.flush(30) == 0
        for p in range(4):
            assert sorted(o for q, o in delivered if q == p) == list(range(50))
    finally:
        delete_topics(settings)


def test_a_partition_nobody_leads_is_named_after_the_timeout(bootstrap_servers: str) -> None:
    settings = Settings(bootstrap_servers=bootstrap_servers)
    admin = kafka.admin(settings)
    absent = f"{RUN}.absent.{uuid.uuid4().hex[:8]}"
    assert unled_partitions(admin, [(absent, 2)], 1.5) == {(absent, 0), (absent, 1)}
