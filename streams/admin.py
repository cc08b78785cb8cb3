"""Creating the contract's topics up front, with explicit partition counts.

Broker auto-creation is off in our stack and must never be relied on: an auto-created
topic gets the broker's default partition count, which silently caps parallelism.

A topic is reported created only once every partition's leader answers for it. Kafka up
to 4.4 can silently drop the first records an idempotent or transactional producer writes
to a partition created a moment ago (KAFKA-15591, fixed in 4.5): a first request that
reaches the leader before it has applied the new partition is refused and retried, a
second one that arrives just after is appended as the partition's first, and the retried
first request is then answered as if it had been written. The chaos suite lost the first
four claims of one partition that way, with every delivery reported successful. Waiting
until the leaders answer closes that window for everything started afterwards.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable
from dataclasses import dataclass

from confluent_kafka import KafkaException, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic, OffsetSpec

from groundwire.streams import kafka
from groundwire.streams.settings import Settings
from groundwire.topics.names import TOPIC_SUFFIXES
from groundwire.topics.redact import redact_url


@dataclass(frozen=True, slots=True)
class TopicOutcome:
    name: str
    partitions: int
    status: str  # created | exists | failed
    detail: str = ""


def create_topics(settings: Settings, timeout_s: float = 30.0) -> list[TopicOutcome]:
    """Create every topic of the contract; one outcome per topic. When the cluster refuses
    the client (wrong credentials, TLS failure) every topic fails at once with that reason
    instead of waiting out `timeout_s`."""
    errors = kafka.ClientErrors(settings.bootstrap_servers)
    admin = kafka.admin(settings, errors)
    wanted: list[NewTopic] = []
    for suffix, cleanup in TOPIC_SUFFIXES.items():
        config = {
            "cleanup.policy": cleanup,
            "min.insync.replicas": str(settings.effective_min_insync_replicas),
        }
        wanted.append(
            NewTopic(
                settings.topics.name(suffix),
                num_partitions=settings.partitions,
                replication_factor=settings.replication_factor,
                config=config,
            )
        )
    futures = admin.create_topics(wanted, request_timeout=timeout_s, operation_timeout=timeout_s)
    try:
        kafka.wait_admin(admin, futures.values(), errors, timeout_s)
    except kafka.KafkaClientFailure as exc:
        return [TopicOutcome(t.topic, settings.partitions, "failed", str(exc)) for t in wanted]
    outcomes: list[TopicOutcome] = []
    for topic in wanted:
        try:
            futures[topic.topic].result(timeout=timeout_s)
            outcomes.append(TopicOutcome(topic.topic, settings.partitions, "created"))
        except KafkaException as exc:
            err = exc.args[0]
            if getattr(err, "name", lambda: "")() == "TOPIC_ALREADY_EXISTS":
                outcomes.append(
                    TopicOutcome(topic.topic, _partitions(admin, topic.topic), "exists")
                )
            else:
                outcomes.append(TopicOutcome(topic.topic, settings.partitions, "failed", str(err)))
        except TimeoutError:
            detail = redact_url(
                f"no answer from Kafka at {settings.bootstrap_servers} in {timeout_s:g}s"
            )
            outcomes.append(TopicOutcome(topic.topic, settings.partitions, "failed", detail))
    return _when_led(admin, outcomes, timeout_s)


def _when_led(
    admin: AdminClient, outcomes: list[TopicOutcome], timeout_s: float
) -> list[TopicOutcome]:
    """The outcomes, with a created or existing topic whose partition leaders do not all
    answer within `timeout_s` turned into a failure that names them."""
    present = {o.name: o.partitions for o in outcomes if o.status != "failed"}
    waiting = unled_partitions(admin, present.items(), timeout_s)
    if not waiting:
        return outcomes
    out = []
    for o in outcomes:
        missing = sorted(p for t, p in waiting if t == o.name)
        if missing:
            detail = (
                f"{o.status}, but partitions {missing} have no leader answering after "
                f"{timeout_s:g}s; producing now could lose records (KAFKA-15591)"
            )
            o = TopicOutcome(o.name, o.partitions, "failed", detail)
        out.append(o)
    return out


def unled_partitions(
    admin: AdminClient, topics: Iterable[tuple[str, int]], timeout_s: float
) -> set[tuple[str, int]]:
    """(topic, partition) pairs whose leader has not answered a ListOffsets request within
    `timeout_s`; empty when every partition of every (name, partition count) is served.
    The request goes to the partition's leader, which refuses it (unknown partition, not
    the leader) until it has applied the partition: the same condition a producer's first
    request needs."""
    waiting = {(name, p) for name, count in topics for p in range(count)}
    deadline = time.monotonic() + timeout_s
    while waiting:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        asked = {TopicPartition(t, p): OffsetSpec.latest() for t, p in sorted(waiting)}
        futures = admin.list_offsets(asked, request_timeout=max(1.0, min(left, 10.0)))
        for tp, future in futures.items():
            with contextlib.suppress(KafkaException, TimeoutError):
                future.result(timeout=max(1.0, left))
                waiting.discard((tp.topic, tp.partition))
        if waiting:
            time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))
    return waiting


def _partitions(admin: AdminClient, name: str) -> int:
    meta = admin.list_topics(topic=name, timeout=10)
    topic = meta.topics.get(name)
    return len(topic.partitions) if topic is not None else 0


def delete_topics(settings: Settings, timeout_s: float = 30.0) -> None:
    """Remove every topic of this prefix (tests and demo clean-up only); raises
    KafkaClientFailure when the cluster refuses the client."""
    errors = kafka.ClientErrors(settings.bootstrap_servers)
    admin = kafka.admin(settings, errors)
    names = list(settings.topics.all().values())
    futures = admin.delete_topics(names, operation_timeout=timeout_s)
    kafka.wait_admin(admin, futures.values(), errors, timeout_s)
    for future in futures.values():
        with contextlib.suppress(KafkaException):  # already gone
            future.result(timeout=timeout_s)
