"""Creating the contract's topics up front, with explicit partition counts.

Broker auto-creation is off in our stack and must never be relied on: an auto-created
topic gets the broker's default partition count, which silently caps parallelism.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient, NewTopic

from groundwire.streams import kafka
from groundwire.streams.settings import Settings
from groundwire.topics.names import TOPIC_SUFFIXES


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
            detail = f"no answer from Kafka at {settings.bootstrap_servers} in {timeout_s:g}s"
            outcomes.append(TopicOutcome(topic.topic, settings.partitions, "failed", detail))
    return outcomes


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
