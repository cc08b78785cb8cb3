"""The answers stage on a real broker and Redis, run by a real worker process
(`groundwire worker --stages answers`): every answer scored onto answers.scored and audit
exactly once, also across a SIGKILL; unreadable records to the dlq; the validated cache
shared through Redis."""

from __future__ import annotations

import collections
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
import redis
from confluent_kafka import Consumer, Producer

from tests.support.names import RUN
from tests.support.pipeline_harness import Pipeline

pytestmark = pytest.mark.integration

CONTEXT = [
    {"id": "mem_X", "text": "Inbox3 is at 60% completion.", "source": "corpus"},
    {"id": "mem_Y", "text": "Inbox3 blockers are OAuth and rate limits.", "source": "corpus"},
]
TEXTS = [
    "Inbox3 is at 60% completion [source:1]. The blockers are OAuth and rate limits.",
    "Your team of 3 engineers is allocated 50% to Inbox3. Inbox3 is at 60% completion.",
    "Hi! Inbox3 runs on Postgres [chat:1]. Shall I go on?",
]


def answer(i: int) -> bytes:
    doc = {
        "answer_id": f"a-{i}",
        "tenant_id": f"tenant-{i % 7}",
        "user_id": "u",
        "text": TEXTS[i % len(TEXTS)],
        "context": [*CONTEXT, {"id": "chat:1", "text": "It runs on Postgres.", "source": "model"}],
    }
    return orjson.dumps(doc)


@pytest.fixture
def pipeline(
    bootstrap_servers: str, redis_url: str, unique_prefix: str, tmp_path: Path
) -> Iterator[Pipeline]:
    p = Pipeline(
        bootstrap_servers,
        redis_url,
        unique_prefix,
        partitions=3,
        log_dir=tmp_path,
        extra_env={
            "GROUNDWIRE_GUARDS__FAITHFULNESS__CACHE__REDIS_PREFIX": f"{RUN}:f:{unique_prefix}"
        },
    )
    p.create_topics()
    yield p
    p.close()
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(match=f"{RUN}:f:{unique_prefix}:*", count=1000):
        client.delete(key)


def start(p: Pipeline, name: str) -> subprocess.Popen[bytes]:
    log = open(p.log_dir / f"{name}.log", "ab")  # noqa: SIM115 (closed with the process)
    cmd = [sys.executable, "-m", "groundwire.streams.cli", "worker", "--stages", "answers"]
    proc = subprocess.Popen([*cmd, "--log-level", "warning"], env=p.env, stdout=log, stderr=log)
    p.procs.append(proc)
    return proc


def publish(p: Pipeline, values: list[bytes]) -> None:
    producer = Producer({"bootstrap.servers": p.bootstrap, "linger.ms": 5})
    for value in values:
        producer.produce(p.settings.topics.name("answers"), value=value, key=b"k")
        producer.poll(0)
    assert producer.flush(60) == 0


class Reader:
    def __init__(self, p: Pipeline) -> None:
        self.prefix = p.prefix
        self.consumer = Consumer(
            {
                "bootstrap.servers": p.bootstrap,
                "group.id": f"reader-{time.time_ns()}",
                "enable.auto.commit": False,
                "isolation.level": "read_committed",
                "auto.offset.reset": "earliest",
            }
        )
        t = p.settings.topics
        self.consumer.subscribe([t.name("answers.scored"), t.audit, t.dlq])
        self.records: list[tuple[str, dict[str, bytes], dict]] = []

    def until(self, topic: str, count: int, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while self.count(topic) < count and time.monotonic() < deadline:
            self.poll(0.5)
        self.poll(3.0)  # late duplicates, if any

    def poll(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for m in self.consumer.consume(1000, 0.3):
                if not m.error():
                    topic = m.topic()[len(self.prefix) :]
                    self.records.append((topic, dict(m.headers() or []), orjson.loads(m.value())))

    def count(self, topic: str) -> int:
        return sum(t == topic for t, _, _ in self.records)

    def ids(self, topic: str) -> collections.Counter[str]:
        return collections.Counter(
            d["answer"]["answer_id"] for t, _, d in self.records if t == topic
        )


def test_each_answer_is_scored_once_and_bad_records_go_to_the_dlq(pipeline: Pipeline) -> None:
    start(pipeline, "worker")
    publish(pipeline, [answer(i) for i in range(30)] + [b"{nope", orjson.dumps({"text": "x"})])
    reader = Reader(pipeline)
    reader.until("answers.scored", 30, 90)
    scored = reader.ids("answers.scored")
    assert scored == collections.Counter({f"a-{i}": 1 for i in range(30)})
    assert reader.ids("audit") == scored
    assert all(h.get("event") == b"answer_score" for t, h, _ in reader.records if t == "audit")
    assert sorted(d["reason"] for t, _, d in reader.records if t == "dlq") == [
        "invalid_answer",
        "not_json",
    ]
    by_id = {d["answer"]["answer_id"]: d for t, _, d in reader.records if t == "answers.scored"}
    assert by_id["a-0"]["risk"] == "none" and by_id["a-0"]["faithfulness"] == 1.0
    assert by_id["a-1"]["risk"] == "high"
    assert by_id["a-2"]["claims"][1]["verdict"] == "rejected"  # the auditor rule
    # validated scores were cached in Redis, hash-tagged by tenant ...
    client = redis.Redis.from_url(pipeline.redis_url)
    pattern = f"{RUN}:f:{pipeline.prefix}:*"
    stored = {k: client.pttl(k) for k in client.scan_iter(match=pattern, count=1000)}
    assert stored and all(b":{" in k for k in stored), stored
    # ... and the same answer again (another id) is served from them
    again = orjson.loads(answer(0))
    publish(pipeline, [orjson.dumps({**again, "answer_id": "again"})])
    reader.until("answers.scored", 31, 60)
    [repeat] = [
        d
        for t, _, d in reader.records
        if t == "answers.scored" and d["answer"]["answer_id"] == "again"
    ]
    assert repeat["cached"] and repeat["claims"] == by_id["a-0"]["claims"]
    # nothing stored was lost meanwhile (a CI run once found no keys here: say where they went)
    now = {k: client.pttl(k) for k in stored}
    assert all(ttl > 0 for ttl in now.values()), (
        f"entries gone or expiring: before {stored}, after {now}, "
        f"dbsize {client.dbsize()}, worker log: {worker_log(pipeline)}"
    )
    client.close()
    reader.consumer.close()


def worker_log(p: Pipeline) -> str:
    path = p.log_dir / "worker.log"
    return path.read_text(errors="replace")[-2000:] if path.exists() else "(none)"


def test_a_sigkilled_worker_loses_and_doubles_nothing(pipeline: Pipeline) -> None:
    n = 600
    publish(pipeline, [answer(i) for i in range(n)])
    worker = start(pipeline, "first")
    reader = Reader(pipeline)
    reader.until("answers.scored", 100, 90)
    worker.send_signal(signal.SIGKILL)
    worker.wait(10)
    start(pipeline, "second")
    reader.until("answers.scored", n, 120)
    scored = reader.ids("answers.scored")
    assert set(scored) == {f"a-{i}" for i in range(n)}
    assert max(scored.values()) == 1, [k for k, v in scored.items() if v > 1][:5]
    assert reader.ids("audit") == scored
    reader.consumer.close()
