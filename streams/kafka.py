"""Every Kafka client groundwire creates comes from here, configured from Settings.

One place means one place where the connection to a secured cluster is set (security
protocol, SASL, TLS, extra librdkafka properties), and where a property the pipeline's
guarantees depend on (transactions, read_committed, manual offsets) is set once. Callers
state only what differs by role: a stage's group and transactional id, a tool's
throw-away group.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient

from groundwire.streams.settings import KafkaValue, Settings


def _config(
    settings: Settings, role: Mapping[str, KafkaValue], extra: Mapping[str, KafkaValue]
) -> dict[str, Any]:
    config: dict[str, Any] = {"bootstrap.servers": settings.bootstrap_servers}
    config.update(settings.kafka.common())
    config.update(extra)
    config.update(role)  # what the role needs for its guarantees always wins
    return config


def consumer(settings: Settings, **role: KafkaValue) -> Consumer:
    """A consumer; `role` uses librdkafka names with `_` for `.` (group_id=...)."""
    return Consumer(_config(settings, _dotted(role), settings.kafka.consumer_extra))


def transactional_consumer(settings: Settings, group: str, instance: str) -> Consumer:
    """A stage's consumer: static membership, manual offsets (they commit inside the
    producer's transaction), and read_committed, so aborted output is never input."""
    return consumer(
        settings,
        group_id=group,
        group_instance_id=instance,
        enable_auto_commit=False,
        enable_auto_offset_store=False,
        isolation_level="read_committed",
        auto_offset_reset="earliest",
        session_timeout_ms=settings.session_timeout_ms,
        max_poll_interval_ms=300_000,
        fetch_min_bytes=1,
        fetch_wait_max_ms=50,
    )


def producer(settings: Settings, **role: KafkaValue) -> Producer:
    return Producer(_config(settings, _dotted(role), settings.kafka.producer_extra))


def transactional_producer(settings: Settings, transactional_id: str) -> Producer:
    return producer(
        settings,
        transactional_id=transactional_id,
        transaction_timeout_ms=settings.transaction_timeout_ms,
        enable_idempotence=True,
        linger_ms=5,
        compression_type="lz4",
        queue_buffering_max_messages=500_000,
    )


def idempotent_producer(settings: Settings) -> Producer:
    """For publishing claims: no duplicates from retries, batched and compressed."""
    return producer(settings, enable_idempotence=True, linger_ms=10, compression_type="lz4")


def admin(settings: Settings) -> AdminClient:
    return AdminClient(_config(settings, {}, settings.kafka.admin_extra))


def produce(
    client: Producer,
    topic: str,
    value: bytes,
    key: bytes | None = None,
    *,
    headers: list[tuple[str, bytes]] | None = None,
    on_delivery: Callable[[Any, Any], None] | None = None,
) -> None:
    """Produce, waiting for room when librdkafka's local queue is full.

    BufferError means the queue holds `queue.buffering.max.messages` undelivered records;
    serving delivery callbacks frees room, so poll and try again instead of failing.
    """
    while True:
        try:
            if on_delivery is None:
                client.produce(topic, value=value, key=key, headers=headers)
            else:
                client.produce(
                    topic, value=value, key=key, headers=headers, on_delivery=on_delivery
                )
            return
        except BufferError:
            client.poll(0.05)


def _dotted(role: Mapping[str, KafkaValue]) -> dict[str, KafkaValue]:
    return {key.replace("_", "."): value for key, value in role.items()}
