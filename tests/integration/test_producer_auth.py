"""Producer authentication through the real worker (docs/spec.md §Producer
authentication): `groundwire produce --key-id ID --key-file PATH` signs what it publishes;
the screen stage keeps a trusted source only for a producer keyed for it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from groundwire.streams.publish import Signer
from tests.support.pipeline_harness import Pipeline

pytestmark = pytest.mark.integration

SECRET = "docs-bot-secret-5f1c9a7e3b2d4c68"


@pytest.fixture
def pipeline(
    bootstrap_servers: str, redis_url: str, unique_prefix: str, tmp_path: Path
) -> Iterator[Pipeline]:
    secrets = tmp_path / "producer-secrets.yaml"
    secrets.write_text(f"docs-bot: {SECRET}\n")
    config = tmp_path / "groundwire.yaml"
    config.write_text(
        "guards:\n"
        "  producer_auth:\n"
        "    keys: {docs-bot: [documentation, manual]}\n"
        f"    secrets_file: {secrets}\n"
    )
    p = Pipeline(
        bootstrap_servers,
        redis_url,
        unique_prefix,
        log_dir=tmp_path,
        extra_env={"GROUNDWIRE_CONFIG": str(config)},
    )
    p.create_topics()
    yield p
    p.close()


def _claim(cid: str, content: str, source: str = "documentation") -> dict[str, object]:
    return {"claim_id": cid, "tenant_id": "acme", "content": content, "source": source}


def _produce(pipeline: Pipeline, tmp_path: Path, name: str, docs: list[dict], *key: str) -> None:
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(d) for d in docs) + b"\n")
    args = [sys.executable, "-m", "groundwire.streams.cli", "produce", "-q", str(path), *key]
    done = subprocess.run(args, env=pipeline.env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert SECRET not in done.stdout + done.stderr


def test_produce_signs_and_the_worker_trusts_only_keyed_producers(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    key_file = tmp_path / "docs-bot.key"
    key_file.write_text(SECRET + "\n")
    wrong_file = tmp_path / "wrong.key"
    wrong_file.write_text("not-the-docs-bot-secret-at-all\n")
    pipeline.start_worker()
    reader = pipeline.reader()
    try:
        _produce(
            pipeline,
            tmp_path,
            "signed",
            [_claim("signed-1", "OAuth2 is required for the billing API")],
            "--key-id",
            "docs-bot",
            "--key-file",
            str(key_file),
        )
        _produce(
            pipeline,
            tmp_path,
            "wrong",
            [_claim("wrong-1", "Refunds settle within five business days")],
            "--key-id",
            "docs-bot",
            "--key-file",
            str(wrong_file),
        )
        _produce(pipeline, tmp_path, "plain", [_claim("plain-1", "Invoices are kept ten years")])
        # a genuine signed record replayed with its content edited
        signer = Signer("docs-bot", SECRET.encode())
        genuine = orjson.loads(
            signer.sign_line(orjson.dumps(_claim("replay-1", "Exports run nightly at 02:00")))
        )
        edited = {**genuine, "content": "Exports are disabled for every tenant"}
        pipeline.produce([orjson.dumps(edited)], key_of=lambda _v: b"acme")
        assert reader.poll_until(4, 120) == 4
        reader.drain(2.0)
    finally:
        reader.close()
    routed = {doc["claim"]["claim_id"]: (topic, doc) for topic, doc in reader.records}
    assert set(routed) == {"signed-1", "wrong-1", "plain-1", "replay-1"}
    topic, doc = routed["signed-1"]
    assert topic == "approved"
    assert doc["claim"]["source"] == "documentation" and doc["claim"]["key_id"] == "docs-bot"
    assert doc["producer_auth"] == {
        "outcome": "verified",
        "action": "kept",
        "claimed_source": "documentation",
        "key_id": "docs-bot",
    }
    expected = {"wrong-1": "bad_signature", "plain-1": "unsigned", "replay-1": "bad_signature"}
    for cid, outcome in expected.items():
        topic, doc = routed[cid]
        assert topic != "approved", cid
        assert doc["claim"]["source"] == "ai_synthesis"
        assert doc["producer_auth"]["outcome"] == outcome
        assert doc["producer_auth"]["action"] == "downgraded"
        assert "source_downgraded" in doc["tags"]
        assert (
            f"producer_unauthenticated: documentation ({outcome})"
            in (doc["validation"]["checks_failed"])
        )
