"""claim_id means one decision, on the real broker and Redis: a claim published again is
noted on audit and not decided again (also across a worker restart); the same claim_id
with other content goes to the dlq as claim_id_reused."""

from __future__ import annotations

import collections
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from tests.support.pipeline_harness import Pipeline

pytestmark = pytest.mark.integration


def _claims(n: int, variant: str = "") -> list[bytes]:
    return [
        orjson.dumps(
            {
                "claim_id": f"led-{i}",
                "tenant_id": f"t-{i % 3}",
                "content": f"Service {i}{variant} keeps its sessions in cluster {i}",
                "source": ("user", "ai_synthesis")[i % 2],
            }
        )
        for i in range(n)
    ]


def _key(value: bytes) -> bytes:
    return orjson.loads(value)["tenant_id"].encode()


@pytest.fixture
def pipeline(
    bootstrap_servers: str, redis_url: str, unique_prefix: str, tmp_path: Path
) -> Iterator[Pipeline]:
    p = Pipeline(bootstrap_servers, redis_url, unique_prefix, log_dir=tmp_path)
    p.create_topics()
    yield p
    p.close()


def test_a_claim_published_again_is_decided_once(pipeline: Pipeline) -> None:
    n = 40
    worker = pipeline.start_worker("first")
    reader = pipeline.reader()
    pipeline.produce(_claims(n), key_of=_key)
    assert reader.poll_until(n, 90) == n
    first_tier = {doc["claim"]["claim_id"]: topic for topic, doc in reader.records}

    # the same records again, byte for byte, then after a worker restart once more
    pipeline.produce(_claims(n), key_of=_key)
    worker.terminate()
    worker.wait(30)
    pipeline.start_worker("second")
    pipeline.produce(_claims(n), key_of=_key)
    # the same ids with other content
    pipeline.produce(_claims(10, variant="b"), key_of=_key)
    assert reader.poll_until(n + 10, 90) == n + 10
    reader.drain(5)

    per_claim = collections.Counter(
        doc["claim"]["claim_id"] for topic, doc in reader.records if topic != "dlq"
    )
    assert set(per_claim) == set(first_tier) and set(per_claim.values()) == {1}
    reused = [doc for topic, doc in reader.records if topic == "dlq"]
    assert len(reused) == 10
    assert {doc["reason"] for doc in reused} == {"claim_id_reused"}

    audit = pipeline.read_topic(pipeline.settings.topics.audit, n + 2 * n, timeout_s=30)
    notices = [doc for doc in audit if doc.get("event") == "replay"]
    decisions = [doc for doc in audit if "validation" in doc]
    assert len(decisions) == n
    assert len(notices) == 2 * n
    tier_topic = {"auto_approve": "approved", "flag_review": "review", "block": "blocked"}
    for notice in notices:
        assert tier_topic[notice["earlier_tier"]] == first_tier[notice["claim"]["claim_id"]]
        assert notice["origin"] != notice["first_origin"]
