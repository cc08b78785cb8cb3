"""The memory view on the real broker and Redis: the reported claims, the scan, retraction,
review decisions on flagged memories, and exactly-once under SIGKILL.

The report: four claims of the specification's worked examples (ent_georgian works_at
Datakynd, then Arrive; ent_inbox3 uses_database Supabase, then Neon a day later) were
all auto-approved and nothing superseded, nothing was flagged. Here the real worker
(screen, route, memory stages) approves them, Arrive supersedes Datakynd at write time,
and `groundwire scan` flags Supabase / Neon as a contradiction that reaches the review
topic; a second scan changes nothing.
"""

from __future__ import annotations

import asyncio
import collections
import subprocess
import sys
import time
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
from confluent_kafka import Consumer, KafkaException, Producer
from confluent_kafka.admin import AdminClient, ConfigResource

from groundwire.streams.memory import view_of
from groundwire.topics.memory import MemoryRecord, memory_id
from groundwire.topics.records import ReviewedResult, ReviewSection, RoutedResult
from groundwire.topics.vocab import ReasonCode, ReviewDecision, ReviewRole
from tests.support.pipeline_harness import Pipeline

pytestmark = pytest.mark.integration

GROUNDWIRE = [sys.executable, "-m", "groundwire.streams.cli"]


@pytest.fixture
def pipeline(bootstrap_servers, redis_url, unique_prefix, tmp_path):
    p = Pipeline(
        bootstrap_servers,
        redis_url,
        unique_prefix,
        partitions=3,
        log_dir=tmp_path,
        extra_env={
            "GROUNDWIRE_GUARDS__CONSISTENCY__RUN_IN_WORKER": "false",
            "GROUNDWIRE_BATCH_SIZE": "200",
        },
    )
    p.create_topics()
    yield p
    p.close()


def _claim(claim_id: str, tenant: str, content: str, s: str, p: str, o: str, day: str) -> bytes:
    return orjson.dumps(
        {
            "claim_id": claim_id,
            "tenant_id": tenant,
            "user_id": "georgian",
            "content": content,
            "memory_type": "fact",
            "source": "user",
            "subject": s,
            "predicate": p,
            "object": o,
            "created_at": f"{day}T09:00:00Z",
        }
    )


REPORTED = [
    (
        "c-datakynd",
        "Georgian works at Datakynd",
        "ent_georgian",
        "works_at",
        "Datakynd",
        "2025-06-10",
    ),
    ("c-arrive", "Georgian works at Arrive", "ent_georgian", "works_at", "Arrive", "2026-04-05"),
    ("c-supabase", "Inbox3 uses Supabase", "ent_inbox3", "uses_database", "Supabase", "2026-04-01"),
    ("c-neon", "Inbox3 uses Neon", "ent_inbox3", "uses_database", "Neon", "2026-04-02"),
]


class TopicReader:
    """Every committed record of some topics, keys, headers and tombstones included."""

    def __init__(self, bootstrap: str, topics: list[str]) -> None:
        self.consumer = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": f"mem-reader-{time.time_ns()}",
                "enable.auto.commit": False,
                "isolation.level": "read_committed",
                "auto.offset.reset": "earliest",
            }
        )
        self.consumer.subscribe(topics)
        self.records: list[tuple[str, bytes | None, bytes | None, dict[str, bytes]]] = []

    def poll_until(self, done: Any, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while not done(self) and time.monotonic() < deadline:
            for m in self.consumer.consume(1000, 0.5):
                if m.error():
                    continue
                headers = dict(m.headers() or [])
                self.records.append((m.topic(), m.key(), m.value(), headers))
        assert done(self), f"timed out; read {len(self.records)} records"

    def drain(self, quiet_s: float = 3.0) -> None:
        idle_until = time.monotonic() + quiet_s
        while time.monotonic() < idle_until:
            msgs = [m for m in self.consumer.consume(1000, 0.5) if not m.error()]
            for m in msgs:
                self.records.append((m.topic(), m.key(), m.value(), dict(m.headers() or [])))
            if msgs:
                idle_until = time.monotonic() + quiet_s

    def of(self, topic: str) -> list[tuple[bytes | None, bytes | None, dict[str, bytes]]]:
        return [(k, v, h) for t, k, v, h in self.records if t == topic]

    def versions(self, topic: str) -> dict[str, list[MemoryRecord | None]]:
        out: dict[str, list[MemoryRecord | None]] = collections.defaultdict(list)
        for key, value, _h in self.of(topic):
            assert key is not None
            out[key.decode()].append(MemoryRecord.model_validate_json(value) if value else None)
        return out

    def close(self) -> None:
        self.consumer.close()


def _produce(
    p: Pipeline, topic: str, records: list[tuple[bytes, bytes, list[tuple[str, bytes]]]]
) -> None:
    producer = Producer({"bootstrap.servers": p.bootstrap})
    for key, value, headers in records:
        producer.produce(topic, value=value, key=key, headers=headers)
    assert producer.flush(30) == 0


def _cli(p: Pipeline, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GROUNDWIRE, *args], env=p.env, capture_output=True, text=True, timeout=timeout
    )


def _latest(versions: dict[str, list[MemoryRecord | None]], mid: str) -> MemoryRecord | None:
    return versions[mid][-1]


def test_reported_claims_supersede_and_the_scan_flags_the_contradiction(
    pipeline: Pipeline, unique_tenant: str
) -> None:
    t = unique_tenant
    ids = {cid: memory_id(t, cid) for cid, *_ in REPORTED}
    pipeline.start_worker()
    # in order, as the agent wrote them (one tenant: one partition, so one order)
    pipeline.produce([_claim(c, t, *rest) for c, *rest in REPORTED], key_of=lambda _v: t.encode())
    topics = pipeline.settings.topics
    reader = TopicReader(pipeline.bootstrap, [topics.name("memories"), topics.review, topics.audit])
    mem = topics.name("memories")
    try:
        reader.poll_until(lambda r: len(r.of(mem)) >= 5, 120)
        versions = reader.versions(mem)
        datakynd = _latest(versions, ids["c-datakynd"])
        arrive = _latest(versions, ids["c-arrive"])
        assert datakynd is not None and arrive is not None
        # Datakynd -> Arrive: superseded at once, valid_to = Arrive's valid_from
        assert [v.version for v in versions[ids["c-datakynd"]] if v] == [1, 2]
        assert datakynd.superseded_by == arrive.memory_id
        assert datakynd.valid_to == arrive.valid_from == datetime(2026, 4, 5, 9, tzinfo=UTC)
        assert arrive.active and arrive.version == 1
        # Supabase / Neon, one day apart: nothing at write time
        for cid in ("c-supabase", "c-neon"):
            (only,) = versions[ids[cid]]
            assert only is not None and only.active and not only.flagged

        scan = _cli(pipeline, "scan", "--tenant", t, "--wait", "60", "--json")
        assert scan.returncode == 0, scan.stderr
        report = orjson.loads(scan.stdout)
        assert report["clusters_found"] == 1
        assert report["verdicts"] == {"contradiction": 1}
        assert report["actions"] == {"flag": 1}
        assert report["semantic_backend"] in {"minhash", "embedding"}

        reader.poll_until(lambda r: len(r.of(mem)) >= 7 and len(r.of(topics.review)) >= 2, 60)
        versions = reader.versions(mem)
        supabase = _latest(versions, ids["c-supabase"])
        neon = _latest(versions, ids["c-neon"])
        assert supabase is not None and neon is not None
        assert supabase.flagged and supabase.contradicts_with == [neon.memory_id]
        assert neon.flagged and neon.contradicts_with == [supabase.memory_id]
        assert supabase.active and neon.active  # neither auto-action fired
        reviews = [
            RoutedResult.model_validate_json(v or b"") for _k, v, _h in reader.of(topics.review)
        ]
        assert {r.claim.metadata["memory_id"] for r in reviews} == {
            supabase.memory_id,
            neon.memory_id,
        }
        assert all(r.validation.reason_code is ReasonCode.CONTRADICTS_MEMORY for r in reviews)
        audit = [
            orjson.loads(v or b"")
            for _k, v, h in reader.of(topics.audit)
            if h.get("event") == b"memory"
        ]
        assert {(a["memory_id"], a["change"]) for a in audit} >= {
            (ids["c-datakynd"], "superseded"),
            (supabase.memory_id, "flagged"),
            (neon.memory_id, "flagged"),
        }

        # the second scan changes nothing
        before = len(reader.of(mem))
        again = _cli(pipeline, "scan", "--tenant", t, "--wait", "60", "--json")
        assert again.returncode == 0, again.stderr
        second = orjson.loads(again.stdout)
        assert second["actions"] == {} and second["clusters_found"] == 0
        assert second["clusters_known"] == 1
        reader.drain(3)
        assert len(reader.of(mem)) == before
        assert len(reader.of(topics.review)) == 2
    finally:
        reader.close()


def _reviewed(review_record: bytes, decision: ReviewDecision) -> bytes:
    routed = RoutedResult.model_validate_json(review_record)
    now = datetime.now(UTC)
    section = ReviewSection(
        decision=decision,
        queue_id="q-1",
        reviewer=routed.claim.user_id,
        role=ReviewRole.OWNER,
        reason="" if decision is ReviewDecision.APPROVE else "wrong database",
        submitted_at=now,
        decided_at=now,
        request_id="req-1",
    )
    return (
        ReviewedResult.model_validate({**routed.model_dump(), "review": section})
        .model_dump_json()
        .encode()
    )


def test_review_decisions_and_retraction(pipeline: Pipeline, unique_tenant: str) -> None:
    """A reviewer rejects Supabase (it is retracted; Neon's flag clears) ... then the user
    asks to be forgotten: every memory of theirs goes, and leaves the dedup index."""
    t = unique_tenant
    pipeline.start_worker()
    pipeline.produce([_claim(c, t, *rest) for c, *rest in REPORTED], key_of=lambda _v: t.encode())
    topics = pipeline.settings.topics
    mem = topics.name("memories")
    reader = TopicReader(pipeline.bootstrap, [mem, topics.review])
    try:
        reader.poll_until(lambda r: len(r.of(mem)) >= 5, 120)
        assert _cli(pipeline, "scan", "--tenant", t, "--wait", "60").returncode == 0
        reader.poll_until(lambda r: len(r.of(topics.review)) >= 2, 60)
        by_memory = {
            RoutedResult.model_validate_json(v or b"").claim.metadata["memory_id"]: v or b""
            for _k, v, _h in reader.of(topics.review)
        }
        supabase, neon = memory_id(t, "c-supabase"), memory_id(t, "c-neon")
        # what the review relay writes for the two decisions (streams/review/relay.py)
        headers = [("tier", b"flag_review"), ("event", b"review_decision")]
        _produce(
            pipeline,
            topics.blocked,
            [(t.encode(), _reviewed(by_memory[supabase], ReviewDecision.REJECT), headers)],
        )
        _produce(
            pipeline,
            topics.approved,
            [(t.encode(), _reviewed(by_memory[neon], ReviewDecision.APPROVE), headers)],
        )
        reader.poll_until(
            lambda r: any(k == supabase.encode() and v is None for k, v, _h in r.of(mem)), 60
        )
        reader.drain(3)
        versions = reader.versions(mem)
        assert versions[supabase][-1] is None  # a tombstone
        kept = versions[neon][-1]
        assert kept is not None and not kept.flagged and kept.contradicts_with == []
        # (unflagged when Supabase went; confirming an unflagged memory changes nothing)
        assert [v.change.value for v in versions[neon] if v] == ["created", "flagged", "unflagged"]

        # one memory by id: a tombstone, gone from the view and from the dedup index
        arrive = memory_id(t, "c-arrive")
        out = _cli(pipeline, "memories", "retract", "--tenant", t, "--memory-id", arrive)
        assert out.returncode == 0, out.stdout + out.stderr
        reader.poll_until(lambda r: r.versions(mem)[arrive][-1] is None, 60)
        shown = _cli(pipeline, "memories", "show", "--tenant", t, "--memory-id", arrive)
        assert shown.returncode == 0 and shown.stdout.strip() == ""
        current = _cli(pipeline, "memories", "show", "--tenant", t)
        assert arrive not in current.stdout and neon in current.stdout
        pipeline.produce(
            [_claim("c-arrive-again", t, *REPORTED[1][1:])], key_of=lambda _v: t.encode()
        )
        arrive_again = memory_id(t, "c-arrive-again")
        reader.poll_until(lambda r: arrive_again in r.versions(mem), 60)
        assert reader.versions(mem)[arrive_again][-1].active  # type: ignore[union-attr]

        # the right to be forgotten: every memory of the user
        out = _cli(
            pipeline, "memories", "retract", "--tenant", t, "--user", "georgian", "--wait", "60"
        )
        assert out.returncode == 0, out.stdout + out.stderr
        reader.poll_until(
            lambda r: all(
                r.versions(mem)[memory_id(t, c)][-1] is None
                for c in [*(c for c, *_ in REPORTED), "c-arrive-again"]
            ),
            60,
        )
        shown = _cli(pipeline, "memories", "show", "--tenant", t, "--user", "georgian")
        assert shown.returncode == 0 and shown.stdout.strip() == ""
        # out of the dedup index: the same statement, as a new claim, is a memory again
        pipeline.produce(
            [
                _claim(
                    "c-neon-again",
                    t,
                    "Inbox3 uses Neon",
                    "ent_inbox3",
                    "uses_database",
                    "Neon",
                    "2026-05-01",
                )
            ],
            key_of=lambda _v: t.encode(),
        )
        again = memory_id(t, "c-neon-again")
        reader.poll_until(lambda r: again in r.versions(mem), 60)
        assert reader.versions(mem)[again][-1].active  # type: ignore[union-attr]
        # retracting an unknown memory is an error
        missing = _cli(
            pipeline, "memories", "retract", "--tenant", t, "--memory-id", "m-" + "0" * 24
        )
        assert missing.returncode == 1 and "no memory" in missing.stderr
    finally:
        reader.close()


def _chain(n: int, tenants: int) -> list[bytes]:
    """Per tenant, a person's employer changing every 40 days (each claim supersedes the
    one before at write time) between facts that supersede nothing."""
    out = []
    for i in range(n):
        tenant = f"t-{i % tenants}"
        step = i // tenants
        day = datetime(2020, 1, 1, tzinfo=UTC).toordinal() + 40 * step
        date = datetime.fromordinal(day).strftime("%Y-%m-%d")
        if step % 3 == 2:
            content, s, p, o = (
                f"Project p{step}x{i} ships release {i}",
                f"p{step}x{i}",
                "ships",
                f"r{i}",
            )
        else:
            content, s, p, o = (
                f"Georgian works at Employer{step}",
                "ent_georgian",
                "works_at",
                f"Employer{step}",
            )
        doc = orjson.loads(_claim(f"c-{i}", tenant, content, s, p, o, date))
        out.append(orjson.dumps(doc))
    return out


def test_sigkill_mid_stream_keeps_memories_exactly_once(pipeline: Pipeline) -> None:
    n, tenants = 2_400, 12
    claims = _chain(n, tenants)
    pipeline.produce(claims, key_of=lambda v: orjson.loads(v)["tenant_id"].encode())
    topics = pipeline.settings.topics
    mem = topics.name("memories")
    reader = TopicReader(pipeline.bootstrap, [mem, topics.audit])
    try:
        first = pipeline.start_worker("worker-1")
        reader.poll_until(lambda r: len(r.of(mem)) >= 400, 180)
        first.kill()
        first.wait(10)
        seen = len({k for k, _v, _h in reader.of(mem)})
        assert seen < n, "the kill must land mid-stream for this test to mean anything"
        pipeline.start_worker("worker-2")
        expected = {memory_id(f"t-{i % tenants}", f"c-{i}") for i in range(n)}
        reader.poll_until(lambda r: expected <= set(r.versions(mem)), 300)
        reader.drain(5)
    finally:
        reader.close()
    versions = reader.versions(mem)
    assert set(versions) == expected, "every approved claim became exactly one memory"
    for mid, chain in versions.items():
        numbers = [v.version for v in chain if v is not None]
        assert numbers == sorted(set(numbers)), f"{mid}: versions {numbers} repeat or go back"
    changes = [
        (a["memory_id"], a["version"], a["change"])
        for a in (
            orjson.loads(v or b"")
            for _k, v, h in reader.of(topics.audit)
            if h.get("event") == b"memory"
        )
    ]
    assert len(changes) == len(set(changes)), "an audit event was written twice"
    # the final state: per tenant exactly one current employer, the latest
    latest = {mid: chain[-1] for mid, chain in versions.items()}
    for t in range(tenants):
        jobs = [
            m
            for m in latest.values()
            if m is not None and m.tenant_id == f"t-{t}" and m.predicate == "works_at"
        ]
        current = [m for m in jobs if m.active]
        assert len(current) == 1, [m.object for m in current]
        assert current[0].valid_from == max(m.valid_from for m in jobs)
        assert all(m.valid_to is not None for m in jobs if not m.active)
    # a consumer that applies `memories` in order holds the store the view holds
    held = asyncio.run(_view_records(pipeline, [f"t-{t}" for t in range(tenants)], "georgian"))
    assert held == {mid: m for mid, m in latest.items() if m is not None}


async def _view_records(p: Pipeline, tenants: list[str], user: str) -> dict[str, MemoryRecord]:
    """Every memory (current and history) the Redis view holds for `user`."""
    view = view_of(p.settings)
    try:
        out: dict[str, MemoryRecord] = {}
        for tenant in tenants:
            out.update((m.memory_id, m) for m in await view.user_memories(tenant, user))
        return out
    finally:
        await view.aclose()


def test_the_memories_topic_is_compacted(pipeline: Pipeline) -> None:
    topic = pipeline.settings.topics.name("memories")
    admin = AdminClient({"bootstrap.servers": pipeline.bootstrap})
    resource = ConfigResource(ConfigResource.Type.TOPIC, topic)
    deadline = time.monotonic() + 30
    while True:  # a topic created a moment ago may not be in every broker's metadata yet
        try:
            configs = admin.describe_configs([resource])[resource].result(30)
            break
        except KafkaException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    assert configs["cleanup.policy"].value == "compact"


def test_the_worker_runs_the_scan_on_its_schedule(
    bootstrap_servers: str, redis_url: str, unique_prefix: str, unique_tenant: str, tmp_path
) -> None:
    """`run_in_worker` with an every-minute schedule: the memory stage's process starts
    the scan at the next minute (one replica claims the slot), and its report arrives on
    audit through memories.commands like any scan's."""
    p = Pipeline(
        bootstrap_servers,
        redis_url,
        unique_prefix,
        partitions=2,
        log_dir=tmp_path,
        extra_env={"GROUNDWIRE_GUARDS__CONSISTENCY__SCHEDULE": "* * * * *"},
    )
    p.create_topics()
    try:
        t = unique_tenant
        p.start_worker("worker-1")
        p.start_worker("worker-2")  # a second replica races for the same slots
        p.produce([_claim(c, t, *rest) for c, *rest in REPORTED], key_of=lambda _v: t.encode())
        topics = p.settings.topics
        reader = TopicReader(p.bootstrap, [topics.audit, topics.review])
        try:
            reports = lambda r: [  # noqa: E731
                orjson.loads(v or b"")
                for _k, v, h in r.of(topics.audit)
                if h.get("event") == b"scan_report"
            ]
            # a slot may fire before the claims reach the view (its scan then finds
            # nothing); the one that sees them flags Supabase / Neon
            flagged = lambda r: [x["report"] for x in reports(r) if x["report"]["actions"]]  # noqa: E731
            reader.poll_until(lambda r: flagged(r) and len(r.of(topics.review)) >= 2, 200)
            scan = flagged(reader)[0]
            assert scan["run_id"].startswith("sched-")
            assert scan["actions"] == {"flag": 1}
            reader.drain(5)
            runs = [r["report"]["run_id"] for r in reports(reader)]
            assert len(runs) == len(set(runs)), f"a slot ran twice: {runs}"
            assert len(flagged(reader)) == 1, "a later scan acted again"
        finally:
            reader.close()
    finally:
        p.close()
