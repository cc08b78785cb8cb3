"""Exactly one record per decision, whatever point the service dies at.

The service is SIGKILLed at each named point of a decision's way to Kafka
(streams/review/faults.py): after the decision is in Redis, after the relay produced its
records, before it commits, after it committed and before it trimmed the outbox; and
the feed after it queued a batch in Redis but before its Kafka commit. Then a clean
service is started, and the committed (read_committed) topics are counted: every
decision is on approved / blocked exactly once, every action on audit exactly once,
every flagged claim queued once.
"""

from __future__ import annotations

import collections
import uuid

import httpx
import pytest

from tests.support.names import RUN
from tests.support.pipeline_harness import Pipeline
from tests.support.redis_server import free_port
from tests.support.review import ReviewProcess, Signer, flagged, record_bytes

pytestmark = pytest.mark.integration

T = "acme"
N = 6


def review_env(pipeline: Pipeline, signer: Signer, port: int) -> dict[str, str]:
    env = pipeline.env
    env.update(
        {
            "GROUNDWIRE_REVIEW__PORT": str(port),
            "GROUNDWIRE_REVIEW__REDIS_PREFIX": f"{RUN}:rv:{pipeline.prefix}",
            "GROUNDWIRE_REVIEW__AUTH__JWKS": signer.jwks,
            "GROUNDWIRE_REVIEW__RELAY_IDLE_S": "0.05",
            "GROUNDWIRE_REVIEW__GAUGE_INTERVAL_S": "1",
        }
    )
    return env


@pytest.fixture
def setup(bootstrap_servers, redis_url, unique_prefix, tmp_path):
    p = Pipeline(bootstrap_servers, redis_url, unique_prefix, partitions=2, log_dir=tmp_path)
    p.create_topics()
    signer = Signer.new()
    service = ReviewProcess(review_env(p, signer, free_port()), 0, tmp_path / "review.log")
    service.port = int(service.env["GROUNDWIRE_REVIEW__PORT"])
    yield p, signer, service
    service.stop()
    p.close()


def publish_flagged(p: Pipeline, n: int) -> list[str]:
    """n flagged claims of one owner straight onto `review`, as the route stage writes them."""
    from confluent_kafka import Producer

    producer = Producer({"bootstrap.servers": p.bootstrap})
    ids = []
    for i in range(n):
        result = flagged(
            T, "alice", f"claim {i} may time out", claim_id=f"f-{uuid.uuid4().hex[:8]}"
        )
        producer.produce(p.settings.topics.review, record_bytes(result), T.encode())
        ids.append(result.claim.claim_id)
    assert producer.flush(30) == 0
    return ids


def pending(service: ReviewProcess, token: str, want: int, timeout_s: float = 60) -> list[dict]:
    import time

    deadline = time.monotonic() + timeout_s
    items: list[dict] = []
    while time.monotonic() < deadline:
        r = httpx.get(
            service.url + "/api/v1/pending?limit=100",
            headers={"Authorization": f"Bearer {token}"},
            timeout=5,
        )
        items = r.json()["items"]
        if len(items) >= want:
            return items
        time.sleep(0.3)
    raise AssertionError(f"{len(items)} of {want} claims reached the queue")


def decide(service: ReviewProcess, token: str, item: dict, n: int) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    qid = item["queue_id"]
    if n % 2 == 0:
        httpx.post(f"{service.url}/api/v1/pending/{qid}/approve", headers=headers, timeout=5)
    else:
        body = {"reason": f"wrong {n}"}
        httpx.post(
            f"{service.url}/api/v1/pending/{qid}/reject", headers=headers, json=body, timeout=5
        )


def read_all(p: Pipeline, topics: list[str], quiet_s: float = 2.0) -> list[tuple[str, dict]]:
    """Every committed record of `topics`, until nothing new arrives for `quiet_s`."""
    import time

    import orjson
    from confluent_kafka import Consumer

    consumer = Consumer(
        {
            "bootstrap.servers": p.bootstrap,
            "group.id": f"count-{uuid.uuid4().hex}",
            "enable.auto.commit": False,
            "isolation.level": "read_committed",
            "auto.offset.reset": "earliest",
        }
    )
    consumer.subscribe(topics)
    out: list[tuple[str, dict]] = []
    idle_until = time.monotonic() + max(quiet_s, 5.0)  # the first assignment takes a moment
    try:
        while time.monotonic() < idle_until:
            msgs = [m for m in consumer.consume(500, 0.3) if not m.error()]
            out += [(m.topic().rsplit(".", 1)[-1], orjson.loads(m.value())) for m in msgs]
            if msgs:
                idle_until = time.monotonic() + quiet_s
    finally:
        consumer.close()
    return out


def count(p: Pipeline) -> tuple[collections.Counter, collections.Counter, collections.Counter]:
    t = p.settings.topics
    decided: collections.Counter = collections.Counter()
    actions: collections.Counter = collections.Counter()
    enqueued: collections.Counter = collections.Counter()
    for topic, doc in read_all(p, [t.approved, t.blocked, t.audit]):
        if topic in ("approved", "blocked"):
            decided[(doc["review"]["queue_id"], topic)] += 1
        elif doc.get("event") == "review" and doc["action"] in ("approve", "reject"):
            actions[(doc["queue_id"], doc["action"])] += 1
        elif doc.get("event") == "review" and doc["action"] == "enqueue":
            enqueued[doc["claim_id"]] += 1
    return decided, actions, enqueued


@pytest.mark.parametrize(
    "fault",
    [
        "decide.after_redis",
        "relay.after_produce",
        "relay.before_commit",
        "relay.after_commit",
        "feed.after_redis",
    ],
)
def test_a_kill_at_any_point_leaves_exactly_one_record_per_decision(setup, fault):
    p, signer, service = setup
    token = signer.token(T, "alice")
    claim_ids = publish_flagged(p, N)
    stage = fault.split(".")[0]
    if stage == "feed":
        service.start(fault=fault, components="api,feed")
        assert service.wait_exit(60) != 0, "the feed must have died at the fault point"
        service.start(components="api,feed")
    elif stage == "decide":
        service.start(fault=fault, components="api,feed")
    else:
        service.start(components="api,feed")
    service.wait_ready()
    items = pending(service, token, N)
    if stage == "decide":
        with pytest.raises(httpx.HTTPError):  # the process dies before it answers
            decide(service, token, items[0], 0)
        assert service.wait_exit(30) != 0
        service.start(components="api,feed")
        service.wait_ready()
        for n, item in enumerate(items[1:], start=1):
            decide(service, token, item, n)
    else:
        for n, item in enumerate(items):
            decide(service, token, item, n)
    service.stop()
    if stage == "relay":
        service.start(fault=fault, components="relay")
        assert service.wait_exit(60) != 0, "the relay must have died at the fault point"
    # The feed runs again too: after a kill in the feed, its restarted run may not have
    # taken the partition back (the dead member's session has to lapse) before the
    # decisions were made and the service stopped; its uncommitted batch is then redone
    # here, and a replay must give each claim exactly one enqueue record, not none or two.
    service.start(components="api,feed,relay")
    service.wait_ready()
    decided, actions, enqueued = count(p)
    queue_ids = {item["queue_id"] for item in items}
    assert {qid for qid, _ in decided} == queue_ids, "every decision reached its topic"
    assert all(v == 1 for v in decided.values()), f"doubled: {decided}"
    for n, item in enumerate(items):
        topic = "approved" if n % 2 == 0 else "blocked"
        assert decided[(item["queue_id"], topic)] == 1
    assert all(v == 1 for v in actions.values()) and len(actions) == N, actions
    assert enqueued == {cid: 1 for cid in claim_ids}, enqueued
