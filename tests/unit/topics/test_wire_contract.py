"""The wire contract without services: schemas, codec and dlq reasons, topic names, settings."""

from __future__ import annotations

import base64

import jsonschema
import orjson
import pytest

from groundwire.streams.settings import Settings
from groundwire.topics.codec import (
    DecodeFailure,
    DecodeLimits,
    decode_claim,
    dlq_record,
    json_depth,
)
from groundwire.topics.names import TOPIC_SUFFIXES, TopicNames
from groundwire.topics.records import Claim
from groundwire.topics.schemas import MODELS, load_schema, stale_schemas
from tests.support import REPO

EXAMPLES = REPO / "groundwire" / "examples" / "claims.jsonl"
LIMITS = DecodeLimits(max_record_bytes=4096, max_content_bytes=256)


def test_checked_in_schemas_match_the_models():
    assert stale_schemas() == [], "run `groundwire schemas write` and commit the result"
    assert set(MODELS) == {
        "claim",
        "routed_result",
        "screened_claim",
        "dlq_record",
        "replay_notice",
        "reviewed_result",
        "review_audit_event",
        "answer",
        "scored_answer",
        "memory_record",
        "memory_command",
        "memory_audit_event",
    }


def test_example_claims_agree_with_schema_and_model():
    schema = load_schema("claim")
    validator = jsonschema.Draft202012Validator(schema)
    good = bad = 0
    for line in EXAMPLES.read_bytes().splitlines():
        try:
            doc = orjson.loads(line)
        except orjson.JSONDecodeError:
            bad += 1
            continue
        schema_ok = not list(validator.iter_errors(doc))
        model_ok = isinstance(
            decode_claim(line, DecodeLimits(max_record_bytes=10**6, max_content_bytes=10**5)),
            Claim,
        )
        assert schema_ok == model_ok, doc.get("claim_id")
        good += model_ok
        bad += not model_ok
    assert good >= 30 and bad >= 3


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"", "empty"),
        (None, "empty"),
        (b"{not json", "not_json"),
        (b"\xff\xfe\x00", "invalid_utf8"),
        (b"[1,2]", "not_object"),
        (b'{"claim_id": "a", "tenant_id": "t"}', "invalid_claim"),
        (
            b'{"claim_id": "a", "tenant_id": "t", "content": "x", "source": "oracle"}',
            "invalid_claim",
        ),
        (
            b'{"claim_id": "a", "tenant_id": "t", "content": "x", "source": "user", '
            b'"confidence": 2}',
            "invalid_claim",
        ),
        (
            orjson.dumps(
                {"claim_id": "a", "tenant_id": "t", "content": "x" * 300, "source": "user"}
            ),
            "too_large",
        ),
        (b" " * 5000, "too_large"),
    ],
)
def test_bad_input_gets_a_machine_readable_reason(raw, reason):
    result = decode_claim(raw, LIMITS)
    assert isinstance(result, DecodeFailure)
    assert result.reason == reason
    assert result.detail


def test_invalid_claim_detail_names_the_fields():
    result = decode_claim(b'{"claim_id": "a", "tenant_id": "t"}', LIMITS)
    assert isinstance(result, DecodeFailure)
    assert "content" in result.detail and "source" in result.detail


def test_dlq_record_keeps_non_utf8_bytes_exactly():
    raw = b"\xff\xfe claim"
    err = decode_claim(raw, LIMITS)
    assert isinstance(err, DecodeFailure)
    rec = dlq_record(err, value=raw, key=b"t1", topic="c", partition=2, offset=7)
    assert base64.b64decode(rec.raw_b64) == raw
    assert (rec.reason, rec.partition, rec.offset, rec.key) == ("invalid_utf8", 2, 7, "t1")


def test_valid_claim_decodes():
    claim = decode_claim(
        b'{"claim_id": "a", "tenant_id": "t", "content": "We use Kafka", "source": "user"}',
        LIMITS,
    )
    assert isinstance(claim, Claim)
    assert claim.memory_type == "fact" and claim.source_turns == []


def test_topic_names_follow_the_prefix():
    names = TopicNames("acme.")
    assert names.approved == "acme.approved"
    assert set(names.all().values()) == {f"acme.{s}" for s in TOPIC_SUFFIXES}
    assert len(set(names.output_topics())) == 4
    with pytest.raises(KeyError):
        names.name("approvd")


def test_settings_from_env_and_yaml(tmp_path, monkeypatch):
    cfg = tmp_path / "guards.prod.yaml"
    cfg.write_text("partitions: 12\nguards:\n  dedup:\n    threshold: 0.9\n", encoding="utf-8")
    monkeypatch.setenv("GROUNDWIRE_CONFIG", str(cfg))
    monkeypatch.setenv("GROUNDWIRE_GUARDS__DEDUP__THRESHOLD", "0.95")
    monkeypatch.setenv("GROUNDWIRE_REDIS_URL", "redis://:s3cret@r:6379/0")
    s = Settings()
    assert s.partitions == 12  # from YAML
    assert s.guards.dedup.threshold == 0.95  # env wins over YAML
    assert "s3cret" not in repr(s)


def test_unknown_settings_are_rejected(monkeypatch, tmp_path):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text("partitons: 3\n", encoding="utf-8")
    monkeypatch.setenv("GROUNDWIRE_CONFIG", str(cfg))
    with pytest.raises(ValueError, match="partitons"):
        Settings()
    monkeypatch.setenv("GROUNDWIRE_CONFIG", str(tmp_path / "missing.yaml"))
    with pytest.raises(FileNotFoundError):
        Settings()


def _doc(**extra: object) -> dict[str, object]:
    return {"claim_id": "a", "tenant_id": "t", "content": "x", "source": "user", **extra}


@pytest.mark.parametrize(
    ("doc", "reason"),
    [
        (_doc(metadata={"a": {"b": {"c": {"d": 1}}}}), "too_deep"),
        (_doc(source_turns=[{"id": str(i), "text": ""} for i in range(5)]), "too_many_turns"),
        (_doc(source_turns=[{"id": "k", "text": "y" * 200}]), "too_large"),
        (_doc(metadata={"pad": "z" * 200}), "too_large"),
        (_doc(claim_id="chat\u200b:7"), "invalid_claim"),
        (_doc(tenant_id=" acme"), "invalid_claim"),
        (_doc(confidence=True), "invalid_claim"),
        (_doc(confidence="0.5"), "invalid_claim"),
    ],
)
def test_limits_are_checked_at_decode(doc: dict[str, object], reason: str) -> None:
    limits = DecodeLimits(
        max_json_depth=3, max_source_turns=4, max_turn_bytes=100, max_metadata_bytes=100
    )
    result = decode_claim(orjson.dumps(doc), limits)
    assert isinstance(result, DecodeFailure), result
    assert result.reason == reason
    assert isinstance(decode_claim(orjson.dumps(_doc(metadata={"a": {"b": 1}})), limits), Claim)


def test_json_depth_counts_containers_and_stops_early() -> None:
    assert json_depth(1, 5) == 0
    assert json_depth({"a": [1, {"b": []}]}, 10) == 4
    deep: object = 1
    for _ in range(10_000):
        deep = [deep]
    assert json_depth(deep, 8) == 9  # gave up one level past the limit


def test_a_dlq_record_never_carries_more_than_the_broker_takes() -> None:
    raw = b"x" * 600_000
    failure = decode_claim(raw, DecodeLimits(max_record_bytes=1000))
    assert isinstance(failure, DecodeFailure)
    rec = dlq_record(
        failure, value=raw, key=None, topic="c", partition=0, offset=9, max_bytes=100_000
    )
    assert rec.raw_b64 is None and "c[0]@9" in rec.detail
    assert len(rec.model_dump_json()) < 100_000
    small = dlq_record(failure, value=raw[:2000], key=None, topic="c", partition=0, offset=9)
    assert small.raw_b64 is not None
