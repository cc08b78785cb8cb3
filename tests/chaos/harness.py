"""One chaos run: publish claims at a steady rate, inject a fault at a random moment, heal
it, and account for every claim_id on the output topics (read_committed).

lost     claim_ids that never reached approved / review / blocked / dlq
doubled  claim_ids that reached them more than once
resume_s seconds from the moment the fault was healed (broker, Redis or network back) to
         the first routed record created after it; None when nothing was left to route
"""

from __future__ import annotations

import collections
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import orjson
from confluent_kafka import (
    OFFSET_BEGINNING,
    Consumer,
    KafkaError,
    Message,
    Producer,
    TopicPartition,
)

from groundwire.streams.admin import create_topics, delete_topics
from groundwire.streams.settings import Settings
from tests.chaos.cluster import ChaosStack

PUBLISH_RATE = 400  # claims per second: slower than the pipeline, so faults hit mid-stream


@dataclass
class RunResult:
    scenario: str
    claims: int
    lost: int
    doubled: int
    resume_s: float | None
    fault: str
    notes: list[str] = field(default_factory=list)


def synthetic_claims(n: int, run: str, tenants: int = 25) -> list[bytes]:
    """Distinct, well-formed claims (unique words, so dedup keeps them apart)."""
    out = []
    for i in range(n):
        source = ("user", "documentation", "ai_synthesis", "conversation")[i % 4]
        words = " ".join(f"w{i}x{j}" for j in range(6))
        out.append(
            orjson.dumps(
                {
                    "claim_id": f"{run}-{i}",
                    "tenant_id": f"t-{i % tenants}",
                    "content": f"The service {words} stores its state in region {i}",
                    "memory_type": "fact",
                    "source": source,
                }
            )
        )
    return out


def record_claim_id(topic: str, value: bytes) -> str | None:
    """The claim_id a record of the path carries: at the top of a published claim, under
    `claim` in what the stages write, and in `raw` of a dlq record, which holds whichever
    record the stage could not route (a published claim from screen, a screened claim,
    with the claim under `claim`, from route)."""
    try:
        doc = orjson.loads(value)
        if topic == "dlq":
            doc = orjson.loads(doc["raw"])
        if not isinstance(doc, dict):
            return None
        inner = doc.get("claim")
        found = inner.get("claim_id") if isinstance(inner, dict) else doc.get("claim_id")
    except (orjson.JSONDecodeError, KeyError, TypeError):
        return None
    return found if isinstance(found, str) else None


class Worker:
    """`groundwire worker` (supervised, one process per stage) as a subprocess group."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "groundwire.streams.cli", "worker", "--log-level", "info"],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def kill(self) -> None:
        """SIGKILL the whole group: the supervisor and every stage process."""
        if self.proc is not None and self.proc.poll() is None:
            import os

            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(40)
            except subprocess.TimeoutExpired:
                self.kill()


class Collector:
    """Reads the four output topics in the background; keeps (claim_id, topic, created).

    Partitions are assigned, not subscribed: a group member whose group rebalances while
    the brokers are away starts its partitions again from the beginning (it commits no
    offsets), and would count records it had already read as doubled. Each record is
    also kept once by its (topic, partition, offset), so only a second *record* for a
    claim_id counts as a double, never a second read of the same record.
    """

    def __init__(self, bootstrap: str, settings: Settings) -> None:
        self.settings = settings
        self.consumer = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": f"chaos-reader-{time.time_ns()}",
                "enable.auto.commit": False,
                "isolation.level": "read_committed",
                # never skip ahead: a reset (out of range after a leader change) re-reads
                # from the start, and the coordinates below keep each record once
                "auto.offset.reset": "earliest",
                "log_level": 3,
            }
        )
        self.errors: collections.Counter[str] = collections.Counter()
        self.dlq_reasons: collections.Counter[str] = collections.Counter()
        t = settings.topics
        topics = [t.approved, t.review, t.blocked, t.dlq]
        # The run created these topics with settings.partitions partitions (metadata may
        # not list a topic created a moment ago).
        self.consumer.assign(
            [
                TopicPartition(name, p, OFFSET_BEGINNING)
                for name in topics
                for p in range(settings.partitions)
            ]
        )
        self.seen: list[tuple[str, str, float]] = []
        self._coordinates: set[tuple[str, int, int]] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        prefix = len(self.settings.topic_prefix)
        while not self._stop.is_set():
            for msg in self.consumer.consume(1000, 0.3):
                if msg.error():
                    self.errors[str(msg.error().name())] += 1
                    continue
                coordinates = (msg.topic(), msg.partition(), msg.offset())
                if coordinates in self._coordinates:
                    continue
                self._coordinates.add(coordinates)
                topic = msg.topic()[prefix:]
                value = msg.value() or b""
                claim_id = record_claim_id(topic, value)
                if claim_id is None:
                    claim_id = f"{topic}:{msg.partition()}:{msg.offset()}"
                if topic == "dlq":
                    self.dlq_reasons[str(orjson.loads(value).get("reason"))] += 1
                _kind, created_ms = msg.timestamp()
                self.seen.append((claim_id, topic, created_ms / 1e3))

    def distinct(self) -> int:
        return len({c for c, _, _ in list(self.seen)})

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        self.consumer.close()


class Publisher(threading.Thread):
    """Publishes at `rate` claims/s; the producer rides out outages (it keeps records
    until delivered, up to ten minutes). `delivered` and `failures` say how it went."""

    def __init__(self, bootstrap: str, topic: str, claims: list[bytes], rate: float) -> None:
        super().__init__(daemon=True)
        self.bootstrap = bootstrap
        self.topic = topic
        self.claims = claims
        self.rate = rate
        self.delivered = 0
        self.failures: list[str] = []
        # claim_id -> (partition, offset) the broker acknowledged: a lost claim's note
        # says where it was said to be written
        self.acknowledged: dict[str, tuple[int, int]] = {}

    def _on_delivery(self, err: object, msg: Message) -> None:
        if err is None:
            self.delivered += 1
            claim_id = record_claim_id("claims", msg.value() or b"")
            partition, offset = msg.partition(), msg.offset()
            if claim_id is not None and partition is not None and offset is not None:
                self.acknowledged[claim_id] = (partition, offset)
        else:
            self.failures.append(str(err))

    def run(self) -> None:
        producer = Producer(
            {
                "bootstrap.servers": self.bootstrap,
                "enable.idempotence": True,
                "linger.ms": 5,
                "message.timeout.ms": 600_000,
                "log_level": 3,
            }
        )
        started = time.monotonic()
        for i, value in enumerate(self.claims):
            key = orjson.loads(value)["tenant_id"].encode()
            while True:
                try:
                    producer.produce(
                        self.topic, value=value, key=key, on_delivery=self._on_delivery
                    )
                    break
                except BufferError:
                    producer.poll(0.1)
            producer.poll(0)
            ahead = started + (i + 1) / self.rate - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
        remaining = producer.flush(600)
        if remaining:
            self.failures.append(f"{remaining} claims still queued after 600 s")


Fault = Callable[["Run"], str]  # injects and heals; returns a description


@dataclass
class Run:
    """What a fault needs: the stack, the worker, the randomness, and where to note the heal."""

    stack: ChaosStack
    worker: Worker
    rng: random.Random
    healed_at: float | None = None
    max_outage_s: float = 30.0

    def outage(self, low: float, high: float) -> float:
        return self.rng.uniform(low, min(high, self.max_outage_s))


def run_scenario(
    stack: ChaosStack,
    name: str,
    fault: Fault,
    *,
    claims: int,
    seed: int,
    work_dir: Path,
    max_outage_s: float = 30.0,
    settle_timeout_s: float = 240.0,
) -> RunResult:
    rng = random.Random(seed)
    run_id = f"{name}-{seed}-{time.time_ns() % 10**8}"
    prefix = f"chaos.{run_id}."
    replication = min(3, stack.brokers)
    settings = Settings(
        bootstrap_servers=stack.bootstrap,
        topic_prefix=prefix,
        partitions=6,
        replication_factor=replication,
    )
    failed = [o for o in create_topics(settings) if o.status == "failed"]
    if failed:
        raise RuntimeError(f"topics: {failed}")
    env = {
        **stack.env,
        "GROUNDWIRE_BOOTSTRAP_SERVERS": settings.bootstrap_servers,
        "GROUNDWIRE_REDIS_URL": stack.redis_url,
        "GROUNDWIRE_TOPIC_PREFIX": prefix,
        "GROUNDWIRE_REPLICATION_FACTOR": str(replication),
        "GROUNDWIRE_WORKER_ID": f"w-{run_id}",
        # A group of its own: runs sharing one would rebalance each other's workers.
        "GROUNDWIRE_CONSUMER_GROUP": f"g-{run_id}",
        "GROUNDWIRE_METRICS_PORT": "0",
        "GROUNDWIRE_STALL_TIMEOUT_S": "60",
        "GROUNDWIRE_GUARDS__DEDUP__REDIS_PREFIX": f"chaos:{run_id}",
        "GROUNDWIRE_GUARDS__CITATION__VERIFY": "false",
    }
    env = {k: v for k, v in env.items() if not k.startswith("GROUNDWIRE_STACK_")}
    worker = Worker(env, work_dir / f"{run_id}.worker.log")
    collector = Collector(settings.bootstrap_servers, settings)
    run = Run(stack, worker, rng, max_outage_s=max_outage_s)
    notes: list[str] = []
    records = synthetic_claims(claims, run_id)
    worker.start()
    collector.start()
    try:
        publisher = Publisher(
            settings.bootstrap_servers, settings.topics.claims, records, PUBLISH_RATE
        )
        publisher.start()
        window = claims / PUBLISH_RATE
        time.sleep(rng.uniform(0.2, 0.6) * window)
        description = fault(run)
        publisher.join(900)
        if publisher.failures or publisher.delivered != claims:
            notes.append(f"published {publisher.delivered} of {claims}; {publisher.failures[:3]}")
        deadline = time.monotonic() + settle_timeout_s
        while collector.distinct() < claims and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(5)  # late duplicates would show up now
    finally:
        worker.stop()
        collector.stop()
    per_claim: dict[str, int] = collections.Counter(c for c, _, _ in collector.seen)
    expected = {orjson.loads(r)["claim_id"] for r in records}
    lost = len(expected - per_claim.keys())
    doubled = sum(1 for c, n in per_claim.items() if n > 1)
    resume = None
    if run.healed_at is not None:
        after = [created for _, _, created in collector.seen if created >= run.healed_at]
        if after:
            resume = round(max(0.0, min(after) - run.healed_at), 2)
    if collector.errors:
        notes.append(f"reader errors: {dict(collector.errors)}")
    if collector.dlq_reasons:
        notes.append(f"dlq reasons: {dict(collector.dlq_reasons)}")
    if lost:
        missing = sorted(expected - per_claim.keys(), key=lambda c: int(c.rsplit("-", 1)[1]))
        acked = [f"{c}: claims[{publisher.acknowledged.get(c)}]" for c in missing[:5]]
        notes.append(f"lost e.g. {acked} (where the broker acknowledged each)")
        notes.extend(locate(settings, set(missing)))
        notes.append(f"worker log: {worker.log}")
        notes.extend(_log_tail(worker.log))
    delete_topics(settings)
    return RunResult(name, claims, lost, doubled, resume, description, notes)


def locate(settings: Settings, claim_ids: set[str]) -> list[str]:
    """Where the lost claims are, read committed and uncommitted, so that a run that lost
    claims says which step kept them: never published, screened but not routed, or routed
    in a transaction that never became visible (a missing commit marker)."""
    t = settings.topics
    found: list[str] = []
    for isolation in ("read_uncommitted", "read_committed"):
        consumer = Consumer(
            {
                "bootstrap.servers": settings.bootstrap_servers,
                "group.id": f"chaos-locate-{time.time_ns()}",
                "enable.auto.commit": False,
                "isolation.level": isolation,
                "enable.partition.eof": True,
                "log_level": 3,
            }
        )
        topics = [t.claims, t.screened, t.approved, t.review, t.blocked, t.dlq, t.audit]
        parts = [
            TopicPartition(n, p, OFFSET_BEGINNING)
            for n in topics
            for p in range(settings.partitions)
        ]
        consumer.assign(parts)
        hits: collections.Counter[tuple[str, int]] = collections.Counter()
        offsets: dict[tuple[str, int], list[int]] = collections.defaultdict(list)
        pending = {(tp.topic, tp.partition) for tp in parts}
        deadline = time.monotonic() + 60
        while pending and time.monotonic() < deadline:
            for msg in consumer.consume(2000, 1.0):
                coordinates = (msg.topic(), msg.partition())
                if msg.error():
                    if msg.error().code() == KafkaError._PARTITION_EOF:
                        pending.discard(coordinates)
                    continue
                topic = (msg.topic() or "")[len(settings.topic_prefix) :]
                if record_claim_id(topic, msg.value() or b"") in claim_ids:
                    hits[coordinates] += 1
                    offsets[coordinates].append(msg.offset())
        consumer.close()
        prefix = len(settings.topic_prefix)
        where = ", ".join(
            f"{topic[prefix:]}[{p}]@{min(offsets[topic, p])}..{max(offsets[topic, p])} x{n}"
            for (topic, p), n in sorted(hits.items())
        )
        found.append(
            f"{isolation}: {where or 'nowhere'}" + (" (read timed out)" if pending else "")
        )
    return found


def _log_tail(log: Path, lines: int = 12) -> list[str]:
    """The worker's last warnings, kept in the result (CI keeps no files)."""
    try:
        text = log.read_text(errors="replace").splitlines()
    except OSError:
        return []
    wanted = [line for line in text if " WARNING " in line or " ERROR " in line or "error" in line]
    return [line[:300] for line in wanted[-lines:]]
