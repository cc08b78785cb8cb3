"""Kafka security settings against a real authenticating listener.

scripts/stack.sh runs the broker with a second client listener, SASL_PLAINTEXT with
SCRAM-SHA-512 (port: GROUNDWIRE_STACK_SASL_PORT, default the PLAINTEXT port + 3; user and
password: GROUNDWIRE_STACK_SASL_USER / _PASSWORD, defaults below). Through it:

* the CLI creates the topics and publishes claims, and a worker configured only through
  `GROUNDWIRE_KAFKA__*` routes them; the outputs are read back with read_committed, all
  on the SASL listener (the broker advertises that listener to clients that came in on it);
* wrong credentials end `topics create` and `produce` in seconds with an authentication
  error, instead of waiting out their timeouts;
* the password shows up in no output, log line or settings repr.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson
import pytest
from pydantic import SecretStr

from groundwire.streams import kafka
from groundwire.streams.admin import delete_topics
from groundwire.streams.settings import KafkaClientConfig, Settings, load_settings
from tests.support import REPO
from tests.support.pipeline_harness import Pipeline

pytestmark = pytest.mark.integration

EXAMPLES = REPO / "groundwire" / "examples" / "claims.jsonl"
# Claims whose route the pipeline tests pin down: one per output topic, and two more.
EXPECTED = {
    "s000-speculation": "blocked",
    "s000-user-pref": "approved",
    "s000-tech-hedge": "review",
    "s000-json": "review",
    "s002-fabricated-employer": "blocked",
}
# The words only the error_cb watch writes (`streams.kafka.ClientErrors.message`): a
# command that waited out librdkafka's timeouts instead would end with another error,
# so these in the output show it stopped on the refused credentials, not on a timeout
# (how long that takes is a speed, not asserted here).
WATCH_SAYS = "(check GROUNDWIRE_KAFKA__* security settings)"


@dataclass(frozen=True)
class SaslListener:
    address: str
    user: str
    password: str

    def env(self, password: str | None = None) -> dict[str, str]:
        return {
            "GROUNDWIRE_BOOTSTRAP_SERVERS": self.address,
            "GROUNDWIRE_KAFKA__SECURITY_PROTOCOL": "SASL_PLAINTEXT",
            "GROUNDWIRE_KAFKA__SASL_MECHANISM": "SCRAM-SHA-512",
            "GROUNDWIRE_KAFKA__SASL_USERNAME": self.user,
            "GROUNDWIRE_KAFKA__SASL_PASSWORD": self.password if password is None else password,
        }

    def settings(self, prefix: str) -> Settings:
        return Settings(
            bootstrap_servers=self.address,
            topic_prefix=prefix,
            kafka=KafkaClientConfig(
                security_protocol="SASL_PLAINTEXT",
                sasl_mechanism="SCRAM-SHA-512",
                sasl_username=self.user,
                sasl_password=SecretStr(self.password),
            ),
        )


@pytest.fixture(scope="module")
def sasl_listener(bootstrap_servers: str) -> SaslListener:
    """The stack's SASL listener, found the way scripts/stack.sh computes it."""
    host, _, port = bootstrap_servers.split(",")[0].rpartition(":")
    sasl_port = int(os.environ.get("GROUNDWIRE_STACK_SASL_PORT") or int(port) + 3)
    listener = SaslListener(
        f"{host or '127.0.0.1'}:{sasl_port}",
        os.environ.get("GROUNDWIRE_STACK_SASL_USER", "groundwire"),
        os.environ.get("GROUNDWIRE_STACK_SASL_PASSWORD", "groundwire-secret"),
    )
    probe_script = REPO / "scripts" / "kafka-runtime" / "kafka_probe.py"
    probe = subprocess.run(
        [sys.executable, str(probe_script), "sasl", str(sasl_port), listener.user],
        env={**os.environ, "GROUNDWIRE_STACK_SASL_PASSWORD": listener.password},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert probe.returncode == 0, (
        f"no SCRAM-SHA-512 login for {listener.user} on {listener.address} "
        f"(rc {probe.returncode}: {probe.stderr.strip()}); start the stack with "
        "`bash scripts/stack.sh start` (restart a broker started before the SASL listener "
        "existed) and see `bash scripts/stack.sh status`"
    )
    return listener


def _cli(
    args: list[str], env: dict[str, str], stdin: bytes | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "groundwire.streams.cli", *args],
        env={**os.environ, **env},
        input=stdin,
        capture_output=True,
        timeout=timeout,
        check=False,
    )


@pytest.fixture
def secured(
    sasl_listener: SaslListener, redis_url: str, unique_prefix: str, tmp_path: Path
) -> Iterator[Pipeline]:
    """A pipeline whose every Kafka client goes through the SASL listener."""
    pipe = Pipeline(
        sasl_listener.address,
        redis_url,
        unique_prefix,
        log_dir=tmp_path,
        extra_env=sasl_listener.env(),
    )
    yield pipe
    for proc in pipe.procs:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
    delete_topics(sasl_listener.settings(unique_prefix))


def _read_outputs(settings: Settings, count: int, timeout_s: float) -> dict[str, list[str]]:
    """claim_id -> output topics, read over SASL with read_committed."""
    consumer = kafka.consumer(
        settings,
        group_id=f"sasl-reader-{time.time_ns()}",
        enable_auto_commit=False,
        isolation_level="read_committed",
        auto_offset_reset="earliest",
    )
    t = settings.topics
    consumer.subscribe([t.approved, t.review, t.blocked, t.dlq])
    seen: dict[str, list[str]] = {}
    deadline = time.monotonic() + timeout_s
    try:
        while sum(map(len, seen.values())) < count and time.monotonic() < deadline:
            for msg in consumer.consume(100, 0.5):
                if msg.error():
                    continue
                topic = msg.topic()[len(settings.topic_prefix) :]
                doc = orjson.loads(msg.value())
                claim_id = doc["claim"]["claim_id"] if topic != "dlq" else f"dlq:{msg.offset()}"
                seen.setdefault(claim_id, []).append(topic)
    finally:
        consumer.close()
    return seen


def _claim_id(line: bytes) -> str | None:
    try:
        doc = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None  # the examples include malformed lines for the dlq tests
    return doc.get("claim_id") if isinstance(doc, dict) else None


def test_worker_routes_claims_end_to_end_through_the_sasl_listener(
    secured: Pipeline, sasl_listener: SaslListener, tmp_path: Path
) -> None:
    env = secured.env
    created = _cli(["topics", "create"], env)
    assert created.returncode == 0, created.stdout.decode() + created.stderr.decode()

    # Debug logging: the most the worker ever writes, all of it checked for the password.
    log = tmp_path / "worker.log"
    with log.open("ab") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "groundwire.streams.cli", "worker", "--log-level", "debug"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    secured.procs.append(worker)
    lines = [line for line in EXAMPLES.read_bytes().splitlines() if _claim_id(line) in EXPECTED]
    assert len(lines) == len(EXPECTED)
    produced = _cli(["produce", "--quiet", "-"], env, stdin=b"\n".join(lines))
    assert produced.returncode == 0, produced.stderr.decode()
    assert f"published {len(lines)} record(s)".encode() in produced.stderr

    routed = _read_outputs(sasl_listener.settings(secured.prefix), len(EXPECTED), 120)
    assert worker.poll() is None, "the worker keeps running"
    assert routed == {claim_id: [topic] for claim_id, topic in EXPECTED.items()}

    # The password reached librdkafka and nothing else: no output, no log line, no repr.
    worker.terminate()
    worker.wait(30)
    logs = log.read_bytes()
    assert b"running stages" in logs, logs.decode(errors="replace")[-2000:]
    secret = sasl_listener.password.encode()
    for output in (created.stdout, created.stderr, produced.stdout, produced.stderr, logs):
        assert secret not in output


def test_wrong_password_stops_on_the_authentication_error_not_a_timeout(
    sasl_listener: SaslListener, unique_prefix: str
) -> None:
    wrong = "not-the-password-7f3a"
    env = {**sasl_listener.env(password=wrong), "GROUNDWIRE_TOPIC_PREFIX": unique_prefix}

    created = _cli(["topics", "create"], env, timeout=90)
    output = (created.stdout + created.stderr).decode()
    assert created.returncode == 1, output
    assert "authentication failed" in output and "SASL" in output, output
    assert WATCH_SAYS in output, output
    assert "Traceback" not in output

    produced = _cli(["produce", "--quiet", "-"], env, stdin=b'{"claim_id": "x"}\n')
    stderr = produced.stderr.decode()
    assert produced.returncode == 1, stderr
    assert "error: 1 record(s) not acknowledged" in stderr
    assert "authentication failed" in stderr, stderr
    assert WATCH_SAYS in stderr, stderr
    assert "Traceback" not in stderr

    for proc in (created, produced):
        assert wrong.encode() not in proc.stdout + proc.stderr


def test_the_password_is_not_in_the_settings_repr(
    sasl_listener: SaslListener, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in sasl_listener.env().items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    assert settings.kafka.sasl_password is not None
    assert settings.kafka.sasl_password.get_secret_value() == sasl_listener.password
    for text in (repr(settings), str(settings), repr(settings.kafka), settings.model_dump_json()):
        assert sasl_listener.password not in text
    # ... while the client configuration librdkafka gets does carry it.
    assert settings.kafka.common()["sasl.password"] == sasl_listener.password
