"""Hostile input through a real worker on the shared broker and Redis: every record is
accounted for, exactly once, on approved / review / blocked / dlq, and every outcome
carries its reason code (docs/architecture.md: every input record produces an output).

The records are those of the in-process fuzz test (`tests.support.hostile`), 2,000 of
them, without the 10 MB values: the broker refuses records over its message size at the
producer, before groundwire could see them (values up to ~600 KB are in the mix).
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from confluent_kafka import Producer

from groundwire.topics.codec import DecodeFailure, decode_claim
from groundwire.topics.vocab import DlqReason, ReasonCode
from tests.support.hostile import hostile_records
from tests.support.names import RUN
from tests.support.pipeline_harness import Pipeline

pytestmark = pytest.mark.integration

COUNT = 2_000
_CLAIM_ID = re.compile(rb'"claim_id":"((?:[^"\\]|\\.)*)"')


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
        extra_env={"GROUNDWIRE_CLAIM_LEDGER__REDIS_PREFIX": f"{RUN}:{unique_prefix}claims"},
    )
    p.create_topics()
    yield p
    p.close()


def _records(pipeline: Pipeline) -> tuple[list[bytes], dict[str, int]]:
    """The hostile records, and for each that decodes to a claim its claim_id -> index.
    Records whose claim_id another record already has are left out (a reused claim_id
    is a test of its own: tests/integration/test_claim_ledger.py)."""
    token = uuid.uuid4().hex[:8]
    kept: list[bytes] = []
    by_claim_id: dict[str, int] = {}
    limits = pipeline.settings.decode_limits
    for value in hostile_records(COUNT, seed=5, token=token):
        decoded = decode_claim(value, limits)
        if not isinstance(decoded, DecodeFailure):
            if decoded.claim_id in by_claim_id:
                continue
            by_claim_id[decoded.claim_id] = len(kept)
        kept.append(value)
    return kept, by_claim_id


def _produce(pipeline: Pipeline, records: list[bytes]) -> dict[tuple[int, int], int]:
    """(partition, offset) -> index of each record, from the delivery reports."""
    where: dict[tuple[int, int], int] = {}
    failed: list[str] = []
    producer = Producer({"bootstrap.servers": pipeline.bootstrap, "linger.ms": 5})
    for index, value in enumerate(records):

        def delivered(err, msg, index: int = index) -> None:  # type: ignore[no-untyped-def]
            if err is not None:
                failed.append(str(err))
            else:
                where[(msg.partition(), msg.offset())] = index

        while True:
            try:
                producer.produce(
                    pipeline.settings.topics.claims, value=value, on_delivery=delivered
                )
                break
            except BufferError:
                producer.poll(0.1)
        producer.poll(0)
    assert producer.flush(60) == 0
    assert not failed, failed[:3]
    return where


def test_2000_hostile_records_are_each_accounted_for_once(pipeline: Pipeline) -> None:
    records, by_claim_id = _records(pipeline)
    pipeline.start_worker()
    reader = pipeline.reader()
    started = time.monotonic()
    where = _produce(pipeline, records)
    assert len(where) == len(records)
    assert reader.poll_until(len(records), 240) >= len(records)
    elapsed = time.monotonic() - started
    reader.drain(5)
    claims_topic = pipeline.settings.topics.claims
    outcome: dict[int, list[str]] = {}
    for topic, doc in reader.records:
        if topic == "dlq":
            reason = DlqReason(doc["reason"])
            if doc["topic"] == claims_topic:  # refused by the screen stage
                index = where[(doc["partition"], doc["offset"])]
            else:  # refused by the route stage: the raw record is the screened claim
                m = _CLAIM_ID.search(doc["raw"].encode())
                assert m, doc
                index = by_claim_id[orjson.loads(b'"' + m.group(1) + b'"')]
            outcome.setdefault(index, []).append(f"dlq:{reason.value}")
        else:
            assert ReasonCode(doc["validation"]["reason_code"])
            index = by_claim_id[doc["claim"]["claim_id"]]
            outcome.setdefault(index, []).append(topic)
    twice = {i: o for i, o in outcome.items() if len(o) != 1}
    missing = sorted(set(range(len(records))) - set(outcome))
    assert not twice, list(twice.items())[:5]
    assert not missing, [records[i][:200] for i in missing[:5]]
    kinds: dict[str, int] = {}
    for (label,) in outcome.values():
        kinds[label] = kinds.get(label, 0) + 1
    print(
        f"\n{len(records)} hostile records accounted for in {elapsed:.1f}s: {sorted(kinds.items())}"
    )
    assert sum(v for k, v in kinds.items() if not k.startswith("dlq")) > 300
