"""Every Kafka client groundwire creates comes from here, configured from Settings.

One place means one place where the connection to a secured cluster is set (security
protocol, SASL, TLS, extra librdkafka properties), and where a property the pipeline's
guarantees depend on (transactions, read_committed, manual offsets) is set once. Callers
state only what differs by role: a stage's group and transactional id, a tool's
throw-away group.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from typing import Any

from confluent_kafka import Consumer, KafkaError, Message, Producer
from confluent_kafka.admin import AdminClient

from groundwire.streams.settings import KafkaValue, Settings
from groundwire.topics.redact import redact_url

# What retrying never fixes: the cluster refused the SASL credentials, or the TLS
# handshake failed (untrusted or rejected certificate). librdkafka reports these through
# error_cb and keeps reconnecting, so without a watch a command waits out its timeouts.
TERMINAL_ERRORS = frozenset(
    {KafkaError._AUTHENTICATION, KafkaError.SASL_AUTHENTICATION_FAILED, KafkaError._SSL}
)


class KafkaClientFailure(RuntimeError):
    """The client cannot work with this cluster and settings (authentication, TLS, or a
    fatal error); the message says which, never the credentials."""


class ClientErrors:
    """An `error_cb` that remembers the first error no retry will fix.

    librdkafka calls it from poll()/flush() (and AdminClient.poll()); pass it to a factory
    below, then call `check()` while waiting so a command fails in about a second with a
    clear message instead of timing out. Transient errors (a broker restarting) are left
    to librdkafka's own retries.
    """

    def __init__(self, bootstrap_servers: str) -> None:
        self.bootstrap_servers = bootstrap_servers
        self.failure: KafkaError | None = None

    def __call__(self, err: KafkaError) -> None:
        if self.failure is None and (err.code() in TERMINAL_ERRORS or err.fatal()):
            self.failure = err

    def message(self) -> str | None:
        err = self.failure
        if err is None:
            return None
        if err.code() in TERMINAL_ERRORS:
            what = "TLS handshake" if err.code() == KafkaError._SSL else "authentication"
            return redact_url(
                f"Kafka at {self.bootstrap_servers}: {what} failed: {err.str()} "
                "(check GROUNDWIRE_KAFKA__* security settings)"
            )
        return redact_url(f"Kafka at {self.bootstrap_servers}: fatal client error: {err.str()}")

    def check(self) -> None:
        """Raise KafkaClientFailure when a terminal error was reported."""
        message = self.message()
        if message is not None:
            raise KafkaClientFailure(message)


# A stage consumer's fetch behaviour; unlike the role's properties these are only
# defaults, and `kafka.consumer_extra` may change them. The broker answers a fetch as soon
# as any record is there (fetch.min.bytes 1), so the wait bounds how often an idle
# consumer asks again. A 500 ms wait cut an idle worker's CPU four-fold (20 -> 5 ms/s,
# bench/bench_idle.py) but held a restarted review feed's first batch back by seconds
# (tests/integration/review/test_review_faults.py, feed.after_redis), so 50 ms stays.
STAGE_FETCH_DEFAULTS: dict[str, KafkaValue] = {"fetch.min.bytes": 1, "fetch.wait.max.ms": 50}


def _config(
    settings: Settings,
    role: Mapping[str, KafkaValue],
    extra: Mapping[str, KafkaValue],
    errors: ClientErrors | None = None,
    defaults: Mapping[str, KafkaValue] | None = None,
) -> dict[str, Any]:
    config: dict[str, Any] = {"bootstrap.servers": settings.bootstrap_servers}
    config.update(defaults or {})
    config.update(settings.kafka.common())
    config.update(extra)
    config.update(role)  # what the role needs for its guarantees always wins
    if errors is not None:
        config["error_cb"] = errors
    return config


def consumer(
    settings: Settings, *, errors: ClientErrors | None = None, **role: KafkaValue
) -> Consumer:
    """A consumer; `role` uses librdkafka names with `_` for `.` (group_id=...)."""
    return Consumer(_config(settings, _dotted(role), settings.kafka.consumer_extra, errors))


def _stage_consumer(
    settings: Settings, errors: ClientErrors | None, **role: KafkaValue
) -> Consumer:
    extra = settings.kafka.consumer_extra
    return Consumer(_config(settings, _dotted(role), extra, errors, STAGE_FETCH_DEFAULTS))


def transactional_consumer(
    settings: Settings, group: str, instance: str, errors: ClientErrors | None = None
) -> Consumer:
    """A stage's consumer: static membership, manual offsets (they commit inside the
    producer's transaction), and read_committed, so aborted output is never input."""
    return _stage_consumer(
        settings,
        errors,
        group_id=group,
        group_instance_id=instance,
        enable_auto_commit=False,
        enable_auto_offset_store=False,
        isolation_level="read_committed",
        auto_offset_reset="earliest",
        session_timeout_ms=settings.session_timeout_ms,
        max_poll_interval_ms=300_000,
    )


def producer(
    settings: Settings, *, errors: ClientErrors | None = None, **role: KafkaValue
) -> Producer:
    return Producer(_config(settings, _dotted(role), settings.kafka.producer_extra, errors))


def transactional_producer(
    settings: Settings, transactional_id: str, errors: ClientErrors | None = None
) -> Producer:
    return producer(
        settings,
        errors=errors,
        transactional_id=transactional_id,
        transaction_timeout_ms=settings.transaction_timeout_ms,
        enable_idempotence=True,
        linger_ms=5,
        compression_type="lz4",
        queue_buffering_max_messages=500_000,
    )


def idempotent_producer(settings: Settings, errors: ClientErrors | None = None) -> Producer:
    """For publishing claims: no duplicates from retries, batched and compressed."""
    return producer(
        settings, errors=errors, enable_idempotence=True, linger_ms=10, compression_type="lz4"
    )


def admin(settings: Settings, errors: ClientErrors | None = None) -> AdminClient:
    return AdminClient(_config(settings, {}, settings.kafka.admin_extra, errors))


def wait_admin(
    client: AdminClient, futures: Iterable[Future], errors: ClientErrors, timeout_s: float
) -> None:
    """Wait until every admin future is done or `timeout_s` passed, serving `errors` (the
    client's error_cb) meanwhile: raises KafkaClientFailure as soon as one is terminal."""
    pending = list(futures)
    deadline = time.monotonic() + timeout_s
    while pending and time.monotonic() < deadline:
        client.poll(0.1)
        errors.check()
        pending = [f for f in pending if not f.done()]
    errors.check()


def produce(
    client: Producer,
    topic: str,
    value: bytes | None,
    key: bytes | None = None,
    *,
    headers: list[tuple[str, str | bytes | None]] | None = None,
    on_delivery: Callable[[Any, Any], None] | None = None,
    errors: ClientErrors | None = None,
) -> None:
    """Produce, waiting for room when librdkafka's local queue is full.

    BufferError means the queue holds `queue.buffering.max.messages` undelivered records;
    serving delivery callbacks frees room, so poll and try again instead of failing
    (unless `errors`, the producer's error_cb, reports that nothing will be delivered).
    """
    while True:
        if errors is not None:
            errors.check()
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


def coordinates(message: Message) -> tuple[str, int, int]:
    """(topic, partition, offset) of a consumed record. confluent-kafka types each as
    optional because an error event has none; a record without an error has all three."""
    topic, partition, offset = message.topic(), message.partition(), message.offset()
    if topic is None or partition is None or offset is None:
        raise ValueError("an error event has no topic, partition and offset")
    return topic, partition, offset


def _dotted(role: Mapping[str, KafkaValue]) -> dict[str, KafkaValue]:
    return {key.replace("_", "."): value for key, value in role.items()}
