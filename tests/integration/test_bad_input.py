"""Hostile input between well-formed claims: each hostile record reaches the dlq with its
reason, and the claims around it route within seconds, on the real broker and Redis."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from tests.support.pipeline_harness import Pipeline

pytestmark = pytest.mark.integration


def _claim(claim_id: str, **extra: object) -> dict[str, object]:
    return {
        "claim_id": claim_id,
        "tenant_id": "t-bad",
        "content": f"The payments service {claim_id} writes its ledger to Postgres",
        "source": "user",
        **extra,
    }


def _deep_record(claim_id: str, levels: int) -> bytes:
    """A claim whose metadata nests `levels` deep (written by hand: serialisers refuse)."""
    head = orjson.dumps(_claim(claim_id))[:-1]
    return head + b',"metadata":' + b'{"n":' * levels + b"1" + b"}" * levels + b"}"


def _hostile() -> dict[str, tuple[bytes, str]]:
    """claim_id -> (record, the dlq reason it must get)."""
    return {
        "deep-300": (_deep_record("deep-300", 300), "too_deep"),
        "record-900k": (
            orjson.dumps(_claim("record-900k", metadata={"pad": "x" * 900_000})),
            "too_large",
        ),
        "content-800k": (
            orjson.dumps(_claim("content-800k") | {"content": "word " * 160_000}),
            "too_large",
        ),
        "turns-20000": (
            orjson.dumps(
                _claim(
                    "turns-20000",
                    source_turns=[{"id": str(i), "text": ""} for i in range(20_000)],
                )
            ),
            "too_many_turns",
        ),
        "confidence-bool": (
            orjson.dumps(_claim("confidence-bool", confidence=True)),
            "invalid_claim",
        ),
        "confidence-text": (
            orjson.dumps(_claim("confidence-text", confidence="0.5")),
            "invalid_claim",
        ),
        "bidi-id": (orjson.dumps(_claim("bidi\u202eid")), "invalid_claim"),
        "space-tenant": (
            orjson.dumps(_claim("space-tenant") | {"tenant_id": " t-bad"}),
            "invalid_claim",
        ),
        "big-output": (
            orjson.dumps(_claim("big-output", source_turns=[{"id": "k", "text": "y " * 20_000}])),
            "output_too_large",
        ),
    }


@pytest.fixture
def pipeline(
    bootstrap_servers: str, redis_url: str, unique_prefix: str, tmp_path: Path
) -> Iterator[Pipeline]:
    p = Pipeline(
        bootstrap_servers,
        redis_url,
        unique_prefix,
        log_dir=tmp_path,
        # Small enough that one claim with a 40 KB source turn cannot be routed.
        extra_env={"GROUNDWIRE_MAX_OUTPUT_BYTES": "30000"},
    )
    p.create_topics()
    yield p
    p.close()


def test_hostile_records_go_to_dlq_and_never_hold_up_the_claims_around_them(
    pipeline: Pipeline,
) -> None:
    hostile = _hostile()
    before = [orjson.dumps(_claim(f"good-{i}")) for i in range(10)]
    after = [orjson.dumps(_claim(f"good-{i}")) for i in range(10, 20)]
    pipeline.start_worker()
    reader = pipeline.reader()
    started = time.monotonic()
    pipeline.produce(
        [*before, *(record for record, _ in hostile.values()), *after], key_of=lambda _v: b"t-bad"
    )
    expected = len(before) + len(hostile) + len(after)
    assert reader.poll_until(expected, 90) == expected
    elapsed = time.monotonic() - started
    reader.drain(3)
    good: dict[str, list[str]] = {}
    dlq: dict[str, str] = {}
    for topic, doc in reader.records:
        if topic == "dlq":
            assert doc["reason"] != "invalid_screened", doc["detail"]
            raw = doc["raw"]
            claim_id = next((cid for cid in hostile if f'"{cid}"' in raw or cid in raw), "?")
            if claim_id == "?" and "bidi" in raw:
                claim_id = "bidi-id"
            dlq[claim_id] = doc["reason"]
        else:
            good.setdefault(doc["claim"]["claim_id"], []).append(topic)
    assert sorted(good) == sorted(f"good-{i}" for i in range(20))
    assert all(len(topics) == 1 for topics in good.values())
    assert dlq == {cid: reason for cid, (_, reason) in hostile.items()}
    print(f"{expected} records routed in {elapsed:.1f}s")
