"""Helpers for pipeline integration tests: real topics, a real worker process, real readers."""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import orjson
from confluent_kafka import Consumer, Producer

from groundwire.streams.admin import create_topics, delete_topics
from groundwire.streams.settings import Settings
from tests.support.names import RUN


@dataclass
class Pipeline:
    """One isolated pipeline: its own topic prefix, dedup key prefix and worker id."""

    bootstrap: str
    redis_url: str
    prefix: str
    partitions: int = 6
    extra_env: dict[str, str] = field(default_factory=dict)
    log_dir: Path | None = None
    procs: list[subprocess.Popen] = field(default_factory=list)

    @property
    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            {
                "GROUNDWIRE_BOOTSTRAP_SERVERS": self.bootstrap,
                "GROUNDWIRE_REDIS_URL": self.redis_url,
                "GROUNDWIRE_TOPIC_PREFIX": self.prefix,
                "GROUNDWIRE_PARTITIONS": str(self.partitions),
                "GROUNDWIRE_WORKER_ID": f"w-{self.prefix}",
                # A group of its own: tests sharing one would rebalance each other's workers.
                "GROUNDWIRE_CONSUMER_GROUP": f"g-{self.prefix}",
                "GROUNDWIRE_METRICS_PORT": "0",
                "GROUNDWIRE_GUARDS__DEDUP__REDIS_PREFIX": f"{RUN}:{self.prefix}",
                "GROUNDWIRE_GUARDS__CITATION__VERIFY": "false",
            }
        )
        env.update(self.extra_env)
        return env

    @property
    def settings(self) -> Settings:
        return Settings(
            bootstrap_servers=self.bootstrap, topic_prefix=self.prefix, partitions=self.partitions
        )

    def create_topics(self) -> None:
        failed = [o for o in create_topics(self.settings) if o.status == "failed"]
        assert not failed, failed

    def start_worker(self, name: str = "worker") -> subprocess.Popen:
        log = open(self.log_dir / f"{name}.log", "ab") if self.log_dir else subprocess.DEVNULL  # noqa: SIM115
        proc = subprocess.Popen(
            [sys.executable, "-m", "groundwire.streams.cli", "worker", "--log-level", "warning"],
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.procs.append(proc)
        return proc

    def produce(self, records: Iterable[bytes], key_of=None) -> int:
        producer = Producer({"bootstrap.servers": self.bootstrap, "linger.ms": 5})
        n = 0
        for value in records:
            key = key_of(value) if key_of else None
            while True:
                try:
                    producer.produce(self.settings.topics.claims, value=value, key=key)
                    break
                except BufferError:
                    producer.poll(0.1)
            n += 1
        assert producer.flush(60) == 0
        return n

    def reader(self) -> OutputReader:
        return OutputReader(self.bootstrap, self.settings)

    def read_topic(self, topic: str, count: int, timeout_s: float = 30.0) -> list[dict]:
        """Up to `count` committed records of one topic (e.g. the internal claims.screened)."""
        consumer = Consumer(
            {
                "bootstrap.servers": self.bootstrap,
                "group.id": f"peek-{time.time_ns()}",
                "enable.auto.commit": False,
                "isolation.level": "read_committed",
                "auto.offset.reset": "earliest",
            }
        )
        consumer.subscribe([topic])
        out: list[dict] = []
        deadline = time.monotonic() + timeout_s
        try:
            while len(out) < count and time.monotonic() < deadline:
                out.extend(
                    orjson.loads(m.value()) for m in consumer.consume(500, 0.5) if not m.error()
                )
        finally:
            consumer.close()
        return out

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(5)
        delete_topics(self.settings)


class OutputReader:
    """Reads approved / review / blocked / dlq with read_committed, accumulating as it goes."""

    def __init__(self, bootstrap: str, settings: Settings) -> None:
        self.settings = settings
        self.consumer = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": f"reader-{time.time_ns()}",
                "enable.auto.commit": False,
                "isolation.level": "read_committed",
                "auto.offset.reset": "earliest",
            }
        )
        t = settings.topics
        self.consumer.subscribe([t.approved, t.review, t.blocked, t.dlq])
        self.records: list[tuple[str, dict]] = []

    def poll_until(self, count: int, timeout_s: float) -> int:
        deadline = time.monotonic() + timeout_s
        while len(self.records) < count and time.monotonic() < deadline:
            for msg in self.consumer.consume(1000, 0.5):
                if msg.error():
                    continue
                suffix = msg.topic()[len(self.settings.topic_prefix) :]
                self.records.append((suffix, orjson.loads(msg.value())))
        return len(self.records)

    def drain(self, quiet_s: float = 3.0) -> None:
        """Keep reading until nothing new arrives for `quiet_s` (to catch late duplicates)."""
        idle_until = time.monotonic() + quiet_s
        while time.monotonic() < idle_until:
            msgs = [m for m in self.consumer.consume(1000, 0.5) if not m.error()]
            for msg in msgs:
                suffix = msg.topic()[len(self.settings.topic_prefix) :]
                self.records.append((suffix, orjson.loads(msg.value())))
            if msgs:
                idle_until = time.monotonic() + quiet_s

    def claim_topics(self) -> dict[str, list[str]]:
        """claim_id -> topics it was written to (dlq records keyed by their raw claim_id)."""
        seen: dict[str, list[str]] = collections.defaultdict(list)
        for topic, doc in self.records:
            if topic == "dlq":
                try:
                    claim_id = orjson.loads(doc["raw"]).get("claim_id", f"dlq:{doc['offset']}")
                except orjson.JSONDecodeError:
                    claim_id = f"dlq:{doc['topic']}:{doc['partition']}:{doc['offset']}"
            else:
                claim_id = doc["claim"]["claim_id"]
            seen[claim_id].append(topic)
        return seen

    def close(self) -> None:
        self.consumer.close()
