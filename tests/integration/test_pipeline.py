"""The pipeline end to end on the real broker and Redis: routing, dlq, audit, crash safety."""

from __future__ import annotations

import collections
import os
import signal

import orjson
import pytest

from tests.support import REPO
from tests.support.pipeline_harness import Pipeline

pytestmark = pytest.mark.integration

EXAMPLES = REPO / "groundwire" / "examples" / "claims.jsonl"


@pytest.fixture
def pipeline(request, bootstrap_servers, redis_url, unique_prefix, tmp_path):
    grounding_stage = getattr(request, "param", "screen")
    p = Pipeline(
        bootstrap_servers,
        redis_url,
        unique_prefix,
        log_dir=tmp_path,
        extra_env={"GROUNDWIRE_GROUNDING_STAGE": grounding_stage},
    )
    p.create_topics()
    yield p
    p.close()


def _tenant_key(value: bytes) -> bytes | None:
    try:
        doc = orjson.loads(value)
    except orjson.JSONDecodeError:
        return None
    return doc.get("tenant_id", "").encode() if isinstance(doc, dict) else None


def _synthetic_claims(n: int, tenants: int = 25) -> list[bytes]:
    """Distinct claims (unique tokens so dedup keeps them apart), half from trusted sources."""
    out = []
    for i in range(n):
        source = ("user", "documentation", "ai_synthesis", "conversation")[i % 4]
        words = " ".join(f"w{i}x{j}" for j in range(6))
        out.append(
            orjson.dumps(
                {
                    "claim_id": f"c-{i}",
                    "tenant_id": f"t-{i % tenants}",
                    "content": f"The service {words} stores its state in region {i}",
                    "memory_type": "fact",
                    "source": source,
                }
            )
        )
    return out


# Grounding runs in the screen stage by default; "route" is the design's placement
# (docs/architecture.md §Departures from the design).
@pytest.mark.parametrize("pipeline", ["screen", "route"], indirect=True)
def test_examples_each_reach_exactly_one_topic_and_bad_input_goes_to_dlq(pipeline):
    lines = [line for line in EXAMPLES.read_bytes().splitlines() if line.strip()]
    oversized = orjson.dumps(
        {"claim_id": "big", "tenant_id": "acme", "content": "x " * 20_000, "source": "user"}
    )
    extra = [b"\xff\xfe not utf-8 \xc3", oversized, b"[1, 2, 3]", b""]
    records = lines + extra
    proc = pipeline.start_worker()
    pipeline.produce(records, key_of=_tenant_key)
    reader = pipeline.reader()
    try:
        assert reader.poll_until(len(records), 120) == len(records)
        reader.drain(2.0)
    finally:
        reader.close()
    assert proc.poll() is None, "the worker must survive malformed input"
    assert len(reader.records) == len(records), "exactly one output record per input record"
    dlq_reasons = collections.Counter(
        doc["reason"] for topic, doc in reader.records if topic == "dlq"
    )
    assert dlq_reasons == {
        "not_json": 1,
        "invalid_claim": 2,
        "invalid_utf8": 1,
        "too_large": 1,
        "not_object": 1,
        "empty": 1,
    }
    routed = {doc["claim"]["claim_id"]: topic for topic, doc in reader.records if topic != "dlq"}
    # Worked examples of docs/spec.md §Tier policy and §Provenance and re-entry, through the
    # real pipeline.
    assert routed["s000-speculation"] == "blocked"
    assert routed["s000-bypass"] == "blocked"
    assert routed["s000-user-pref"] == "approved"
    assert routed["s000-tech-hedge"] == "review"
    assert routed["s000-json"] == "review"
    assert routed["s004-reentry"] != "approved"
    assert routed["s002-fabricated-employer"] == "blocked"
    # Same content in one tenant: only the first may pass; another tenant is unaffected.
    assert {routed["s000-adr"], routed["s000-adr-duplicate"]} >= {"blocked"}
    assert routed["r-other-tenant-dup"] != "blocked"
    # Where grounding ran shows on the internal topic: a report on every screened record
    # (screen), or none (route grounds them itself).
    screened = pipeline.read_topic(pipeline.settings.topics.screened, len(routed))
    assert len(screened) == len(routed)
    carried = [doc.get("grounding") is not None for doc in screened]
    assert (
        all(carried)
        if pipeline.extra_env["GROUNDWIRE_GROUNDING_STAGE"] == "screen"
        else not any(carried)
    )


def test_sigkill_mid_stream_loses_nothing_and_doubles_nothing(pipeline):
    n = 10_000
    pipeline.produce(_synthetic_claims(n), key_of=_tenant_key)
    reader = pipeline.reader()
    try:
        first = pipeline.start_worker("worker-1")
        seen_before_kill = reader.poll_until(1_500, 180)
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        assert 0 < seen_before_kill < n, (
            "the kill must land mid-stream for this test to mean anything"
        )
        pipeline.start_worker("worker-2")
        assert reader.poll_until(n, 300) >= n
        reader.drain(5.0)
    finally:
        reader.close()
    topics_by_claim = reader.claim_topics()
    assert set(topics_by_claim) == {f"c-{i}" for i in range(n)}, "every claim reached an output"
    doubled = {cid: t for cid, t in topics_by_claim.items() if len(t) != 1}
    assert not doubled, (
        f"{len(doubled)} claims written more than once, e.g. {list(doubled.items())[:3]}"
    )
    approved = [doc["claim"]["claim_id"] for topic, doc in reader.records if topic == "approved"]
    assert len(approved) == len(set(approved)) > 0


def test_redis_outage_fails_closed_and_recovers(
    bootstrap_servers, unique_prefix, tmp_path, own_redis
):
    p = Pipeline(bootstrap_servers, own_redis.url, unique_prefix, log_dir=tmp_path)
    p.create_topics()
    try:
        proc = p.start_worker()
        batches = [_synthetic_claims(600)[i * 200 : (i + 1) * 200] for i in range(3)]
        reader = p.reader()
        p.produce(batches[0], key_of=_tenant_key)
        assert reader.poll_until(200, 120) == 200
        own_redis.stop()
        p.produce(batches[1], key_of=_tenant_key)
        assert reader.poll_until(400, 120) == 400
        own_redis.start()
        p.produce(batches[2], key_of=_tenant_key)
        assert reader.poll_until(600, 120) == 600
        reader.drain(2.0)
        reader.close()
        assert proc.poll() is None, "the worker keeps running through the outage"
        by_id = {doc["claim"]["claim_id"]: (topic, doc) for topic, doc in reader.records}
        assert len(by_id) == 600 == len(reader.records)
        outage_ids = {orjson.loads(v)["claim_id"] for v in batches[1]}
        for cid in outage_ids:
            topic, doc = by_id[cid]
            assert topic != "approved", f"{cid} approved while dedup was down"
            assert any(c.startswith("dedup_failed") for c in doc["validation"]["checks_failed"])
        after = [by_id[orjson.loads(v)["claim_id"]] for v in batches[2]]
        assert all("not_duplicate" in doc["validation"]["checks_passed"] for _, doc in after), (
            "after Redis returns, dedup runs again without a worker restart"
        )
        assert any(topic == "approved" for topic, _ in after)
    finally:
        p.close()


def test_worker_id_is_stable_by_default():
    """Restart safety depends on it: a new id would leave the dead transaction open."""
    from groundwire.streams.settings import Settings

    os.environ.pop("GROUNDWIRE_WORKER_ID", None)
    assert Settings().worker_id == Settings().worker_id == os.uname().nodename
