"""Live observability check: a real worker, a real Prometheus scraping it, the HTTP API.

Runs the CLI as an operator would (`groundwire topics create`, `groundwire worker` with
the opt-in answers stage beside the default ones, `groundwire produce`), publishes
answers to the `answers` topic for three tenants whose policies warn, regenerate (through
a webhook of the test's own) and block, starts Debian's `prometheus` with a generated
config (1 s scrape, the repository's rule files, its own storage dir and port), then
asserts through the Prometheus HTTP API that:
  * the counters equal what the worker actually routed (read back from the output
    topics and counted by the codes they carry),
  * the guard-3 counters equal what the answers stage wrote to `answers.scored`
    (risk levels, policy actions, unsupported verdicts, uncited findings, phantoms),
  * every PromQL expression of the dashboard parses and returns data,
  * the rule files load into a real server,
  * `groundwire report` works against it.
Needs Kafka and Redis (scripts/stack.sh start) and /usr/bin/prometheus.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import redis
import yaml
from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient

from groundwire.metrics import dashboard, labels
from groundwire.metrics.screening import reentry_reasons
from groundwire.topics.answers import ScoredAnswer
from groundwire.topics.records import DlqRecord, RoutedResult
from tests.support import REPO
from tests.support.names import RUN

pytestmark = pytest.mark.integration

EXAMPLES = REPO / "groundwire" / "examples" / "claims.jsonl"
GROUNDWIRE = [sys.executable, "-m", "groundwire.streams.cli"]
PROMETHEUS_BIN = shutil.which("prometheus") or "/usr/bin/prometheus"
GRAFANA_VARS = {"$__rate_interval": "1m", "$__range": "1h", "$__interval": "15s"}
# the default stages plus the opt-in answers stage (read-time faithfulness)
STAGES = "screen,route,memory,answers"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(what: str, check: Any, timeout: float, interval: float = 0.5) -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        last = check()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what} (last: {last!r})")


class Prom:
    """A Prometheus server of the test's own, queried over its HTTP API."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=10)

    def query(self, promql: str) -> list[dict[str, Any]]:
        response = self.http.get("/api/v1/query", params={"query": promql})
        body = response.json()
        assert body["status"] == "success", f"{promql}: {body}"
        return body["data"]["result"]

    def scalar(self, promql: str) -> float | None:
        rows = self.query(promql)
        return float(rows[0]["value"][1]) if rows else None

    def by(self, promql: str, label: str) -> dict[str, float]:
        return {r["metric"].get(label, ""): float(r["value"][1]) for r in self.query(promql)}


class _Regenerate(BaseHTTPRequestHandler):
    """The regenerate policy's webhook: answers with the first context source, cited."""

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
        first = request["context"][0]
        payload = json.dumps({"answer": f"{first['text']} [source:{first['index']}]"}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *_args: object) -> None:
        """Quiet."""


@pytest.fixture
def webhook() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Regenerate)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/regenerate"
    server.shutdown()
    server.server_close()


@pytest.fixture
def env(
    bootstrap_servers: str, redis_url: str, unique_prefix: str, unique_tenant: str, webhook: str
) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "GROUNDWIRE_BOOTSTRAP_SERVERS": bootstrap_servers,
            "GROUNDWIRE_REDIS_URL": redis_url,
            "GROUNDWIRE_TOPIC_PREFIX": unique_prefix,
            "GROUNDWIRE_PARTITIONS": "2",
            "GROUNDWIRE_METRICS_PORT": str(_free_port()),
            "GROUNDWIRE_WORKER_ID": f"obs-{unique_prefix}",
            "GROUNDWIRE_GUARDS__DEDUP__REDIS_PREFIX": f"{RUN}:{unique_prefix}",
            # keep the test on loopback: no URL/issue lookups
            "GROUNDWIRE_GUARDS__CITATION__VERIFY": "false",
            # guard 3: one tenant per policy (the default, warn, for the rest); the
            # webhook is on loopback, so it is allow-listed past the SSRF guard
            "GROUNDWIRE_GUARDS__FAITHFULNESS__TENANT_POLICIES": json.dumps(
                {f"{unique_tenant}-regen": "regenerate", f"{unique_tenant}-block": "block"}
            ),
            "GROUNDWIRE_GUARDS__FAITHFULNESS__REGENERATE__WEBHOOK_URL": webhook,
            "GROUNDWIRE_GUARDS__FAITHFULNESS__REGENERATE__WEBHOOK_ALLOWLIST": '["127.0.0.1"]',
            "GROUNDWIRE_GUARDS__FAITHFULNESS__CACHE__REDIS_PREFIX": f"{RUN}:faith:{unique_prefix}",
        }
    )
    return env


@pytest.fixture
def pipeline(env: dict[str, str], tmp_path: Path) -> Iterator[dict[str, str]]:
    """Topics created and one worker running; topics deleted afterwards."""
    created = subprocess.run(
        [*GROUNDWIRE, "topics", "create"], env=env, capture_output=True, text=True, timeout=120
    )
    assert created.returncode == 0, created.stdout + created.stderr
    log = (tmp_path / "worker.log").open("wb")
    worker = subprocess.Popen(
        [*GROUNDWIRE, "worker", "--stages", STAGES], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        yield env
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=10)
        log.close()
        admin = AdminClient({"bootstrap.servers": env["GROUNDWIRE_BOOTSTRAP_SERVERS"]})
        mine = [
            t
            for t in admin.list_topics(timeout=10).topics
            if t.startswith(env["GROUNDWIRE_TOPIC_PREFIX"])
        ]
        if mine:
            for future in admin.delete_topics(mine, operation_timeout=30).values():
                future.result()
        cache = redis.Redis.from_url(env["GROUNDWIRE_REDIS_URL"])
        for key in cache.scan_iter(match=f"{RUN}:faith:{env['GROUNDWIRE_TOPIC_PREFIX']}*"):
            cache.delete(key)
        cache.close()


@pytest.fixture
def prometheus(env: dict[str, str], tmp_path: Path) -> Iterator[Prom]:
    assert Path(PROMETHEUS_BIN).exists(), "Debian's prometheus package is required"
    port = _free_port()
    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(p) for p in sorted((REPO / "metrics" / "rules").glob("*.yml"))],
        "scrape_configs": [
            {
                "job_name": "groundwire-worker",
                "scrape_interval": "1s",
                "static_configs": [{"targets": [f"127.0.0.1:{env['GROUNDWIRE_METRICS_PORT']}"]}],
            }
        ],
    }
    config_path = tmp_path / "prometheus.yml"
    config_path.write_text(yaml.safe_dump(config))
    log = (tmp_path / "prometheus.log").open("wb")
    proc = subprocess.Popen(
        [
            PROMETHEUS_BIN,
            f"--config.file={config_path}",
            f"--storage.tsdb.path={tmp_path / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{port}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    prom = Prom(f"http://127.0.0.1:{port}")
    try:

        def ready() -> bool:
            try:
                return prom.http.get("/-/ready").status_code == 200
            except httpx.HTTPError:
                return proc.poll() is not None  # exited: stop waiting, assert below

        _wait("prometheus ready", ready, 60)
        assert proc.poll() is None, (tmp_path / "prometheus.log").read_text()[-2000:]
        yield prom
    finally:
        prom.http.close()
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def _claims_file(tmp_path: Path, tenant: str) -> tuple[Path, int]:
    """The bundled example claims (some deliberately malformed) under a fresh tenant and
    fresh claim ids, plus two malformed lines of our own; returns (file, line count)."""
    lines = []
    for raw in EXAMPLES.read_bytes().splitlines():
        if not raw.strip():
            continue
        try:
            doc = json.loads(raw)
        except ValueError:
            lines.append(raw)
            continue
        if isinstance(doc, dict) and isinstance(doc.get("claim_id"), str):
            doc["tenant_id"] = tenant
            doc["claim_id"] = f"{doc['claim_id']}-{uuid.uuid4().hex[:6]}"
        lines.append(json.dumps(doc).encode())
    lines += [b"this is not json {", b"[1, 2, 3]"]
    path = tmp_path / "claims.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path, len(lines)


def _read_outputs(env: dict[str, str], expected: int) -> dict[str, list[dict[str, Any]]]:
    prefix = env["GROUNDWIRE_TOPIC_PREFIX"]
    topics = {s: f"{prefix}{s}" for s in ("approved", "review", "blocked", "dlq")}
    consumer = Consumer(
        {
            "bootstrap.servers": env["GROUNDWIRE_BOOTSTRAP_SERVERS"],
            "group.id": f"obs-reader-{uuid.uuid4().hex[:8]}",
            "auto.offset.reset": "earliest",
            "isolation.level": "read_committed",
            "enable.auto.commit": False,
        }
    )
    consumer.subscribe(list(topics.values()))
    by_topic: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    suffix_of = {v: k for k, v in topics.items()}
    deadline = time.monotonic() + 180
    try:
        while sum(len(v) for v in by_topic.values()) < expected and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None or msg.error():
                continue
            by_topic[suffix_of[msg.topic()]].append(orjson.loads(msg.value()))
    finally:
        consumer.close()
    got = sum(len(v) for v in by_topic.values())
    assert got == expected, f"routed {got} of {expected} records: {dict(by_topic)}"
    return by_topic


def _expected_series(outputs: dict[str, list[dict[str, Any]]]) -> dict[str, collections.Counter]:
    """Recompute every counter from the codes the routed and dead-lettered records carry."""
    exp: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for suffix in ("approved", "review", "blocked"):
        for doc in outputs.get(suffix, []):
            r = RoutedResult.model_validate(doc)
            exp["tier"][r.validation.tier.value] += 1
            exp["reason"][r.validation.reason_code.value] += 1
            verdict = r.grounding.verdict.value
            exp["verdict"][verdict] += 1
            if verdict == "not_supported" and r.validation.tier.value == "block":
                exp["blocked"]["all"] += 1
            if r.validation.dedup.value in labels.DEDUP_RESULTS:
                exp["dedup"][r.validation.dedup.value] += 1
            for reason in reentry_reasons(r):
                exp["reentry"][reason] += 1
    for doc in outputs.get("dlq", []):
        exp["dlq"][DlqRecord.model_validate(doc).reason.value] += 1
    return exp


# Guard 3: the spec's Inbox3 context, a model's own output among it (fails provenance)
# and a memory of another scope (never grounds; the uncited-claim flagger names it).
ANSWER_CONTEXT = [
    {"id": "mem_X", "text": "Inbox3 is at 60% completion.", "source": "corpus"},
    {
        "id": "mem_Y",
        "text": "The main blockers of Inbox3 are OAuth and rate limits.",
        "source": "corpus",
    },
    {"id": "chat_1", "text": "Inbox3 runs on Postgres.", "source": "model"},
]
OTHER_SCOPES = [
    {
        "id": "team_1",
        "text": "The Inbox3 team deploys every Friday.",
        "source": "corpus",
        "scope": "team",
    }
]
ANSWER_TEXTS = {
    "supported": "Inbox3 is at 60% completion [source:1]. "
    "The main blockers are OAuth and rate limits [source:2].",
    "inbox3": "Your Inbox3 project is at 60% completion. The main blockers are OAuth and rate "
    "limits. Your team of 3 engineers is allocated 50% to this project.",
    "citations": "Inbox3 is at 60% completion [source:7]. Inbox3 runs on Postgres [chat_1]. "
    "The Inbox3 team deploys every Friday. Hope this helps!",
}
# (tenant suffix, text) per answer; the tenants' policies are set in `env`
ANSWER_PLAN = [
    ("warn", "supported"),
    ("warn", "inbox3"),
    ("warn", "citations"),
    ("regen", "inbox3"),
    ("block", "inbox3"),
    ("block", "supported"),
]


def _publish_answers(env: dict[str, str], tenant: str) -> list[str]:
    """The plan's answers onto the `answers` topic; returns their ids."""
    producer = Producer({"bootstrap.servers": env["GROUNDWIRE_BOOTSTRAP_SERVERS"]})
    ids = []
    for i, (suffix, text) in enumerate(ANSWER_PLAN):
        answer_id = f"ans-{i}-{uuid.uuid4().hex[:6]}"
        doc = {
            "answer_id": answer_id,
            "tenant_id": f"{tenant}-{suffix}",
            "user_id": "georgian",
            "text": ANSWER_TEXTS[text],
            "context": ANSWER_CONTEXT,
            "other_scopes": OTHER_SCOPES,
            "query": "How is Inbox3 going?",
        }
        topic = f"{env['GROUNDWIRE_TOPIC_PREFIX']}answers"
        producer.produce(topic, key=doc["tenant_id"].encode(), value=orjson.dumps(doc))
        ids.append(answer_id)
    assert producer.flush(30) == 0
    return ids


def _read_scored(env: dict[str, str], ids: list[str]) -> list[ScoredAnswer]:
    consumer = Consumer(
        {
            "bootstrap.servers": env["GROUNDWIRE_BOOTSTRAP_SERVERS"],
            "group.id": f"obs-answers-{uuid.uuid4().hex[:8]}",
            "auto.offset.reset": "earliest",
            "isolation.level": "read_committed",
            "enable.auto.commit": False,
        }
    )
    consumer.subscribe([f"{env['GROUNDWIRE_TOPIC_PREFIX']}answers.scored"])
    scored: dict[str, ScoredAnswer] = {}
    deadline = time.monotonic() + 120
    try:
        while len(scored) < len(ids) and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None or msg.error():
                continue
            item = ScoredAnswer.model_validate_json(msg.value())
            scored[item.answer.answer_id] = item
    finally:
        consumer.close()
    assert sorted(scored) == sorted(ids), f"scored {sorted(scored)} of {sorted(ids)}"
    return [scored[i] for i in ids]


def _expected_guard3(scored: list[ScoredAnswer]) -> dict[str, collections.Counter]:
    """Recompute the guard-3 counters from what the answers stage wrote."""
    exp: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for item in scored:
        exp["risk"][item.risk.value] += 1
        exp["action"][item.action.value] += 1
        for claim in item.claims:
            if claim.verdict is not None and claim.verdict.value != "supported":
                exp["unsupported"][claim.verdict.value] += 1
            if claim.uncited is not None:
                exp["uncited"][claim.uncited.finding.value] += 1
            exp["phantom"]["all"] += sum(c.status.value == "phantom" for c in claim.citations)
    return exp


def _nonzero(values: dict[str, float]) -> dict[str, int]:
    return {k: round(v) for k, v in values.items() if v}


def test_prometheus_sees_what_the_worker_routed(
    pipeline: dict[str, str], prometheus: Prom, tmp_path: Path, unique_tenant: str
) -> None:
    env = pipeline
    # 1. the worker is scraped (its series exist at 0) before any claim is sent
    _wait("worker scraped", lambda: prometheus.scalar('up{job="groundwire-worker"}') == 1, 90)
    _wait(
        "zero-initialised counters",
        lambda: prometheus.scalar("sum(groundwire_claims_routed_total)") == 0,
        30,
    )

    # 2. route claims through the real pipeline
    claims, total = _claims_file(tmp_path, unique_tenant)
    produced = subprocess.run(
        [*GROUNDWIRE, "produce", str(claims), "--quiet"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert produced.returncode == 0, produced.stderr
    outputs = _read_outputs(env, total)  # exactly one output record per input line
    expected = _expected_series(outputs)
    good, bad = sum(expected["tier"].values()), sum(expected["dlq"].values())
    assert good + bad == total and bad >= 2 and good >= 10

    # 3. counters in Prometheus equal what was routed. Stages count a claim when they
    # decide it and time the batch (produce, stage latency) once its transaction has
    # committed, so a scrape can hold the counts before the timings: wait for both.
    def _timed() -> bool:
        counts = prometheus.by("sum by (stage) (groundwire_stage_latency_seconds_count)", "stage")
        return all(counts.get(s, 0) >= 1 for s in ("screen", "route", "produce"))

    _wait(
        "final counters scraped",
        lambda: (
            prometheus.scalar("sum(groundwire_claims_routed_total)") == good
            and prometheus.scalar("sum(groundwire_dlq_records_total)") == bad
            and _timed()
        ),
        60,
    )
    q = prometheus
    assert _nonzero(q.by("sum by (tier) (groundwire_claims_routed_total)", "tier")) == dict(
        expected["tier"]
    )
    assert _nonzero(q.by("sum by (reason) (groundwire_claims_routed_total)", "reason")) == dict(
        expected["reason"]
    )
    assert _nonzero(
        q.by("sum by (verdict) (groundwire_grounding_verdicts_total)", "verdict")
    ) == dict(expected["verdict"])
    assert round(q.scalar("sum(groundwire_hallucination_blocked_total)") or 0) == sum(
        expected["blocked"].values()
    )
    assert _nonzero(q.by("sum by (result) (groundwire_dedup_results_total)", "result")) == dict(
        expected["dedup"]
    )
    assert _nonzero(
        q.by("sum by (reason) (groundwire_reentry_rejections_total)", "reason")
    ) == dict(expected["reentry"])
    assert _nonzero(q.by("sum by (reason) (groundwire_dlq_records_total)", "reason")) == dict(
        expected["dlq"]
    )
    # both stages and the produce step were timed (the worker times whole batches)
    stage_counts = q.by("sum by (stage) (groundwire_stage_latency_seconds_count)", "stage")
    assert all(stage_counts.get(s, 0) >= 1 for s in ("screen", "route", "produce")), stage_counts
    lag = _wait("consumer lag reported", lambda: q.query("groundwire_consumer_lag"), 30)
    # one series per (group, topic, partition), whichever process of the worker set it
    assert all("pid" not in row["metric"] for row in lag), lag
    inputs = ("claims", "claims.screened", "approved", "blocked", "memories.commands", "answers")
    assert {row["metric"]["topic"] for row in lag} <= {
        f"{env['GROUNDWIRE_TOPIC_PREFIX']}{s}" for s in inputs
    }

    # 3b. guard 3: answers published to `answers`, scored by the answers stage with each
    # tenant's policy; the counters equal what it wrote to `answers.scored`
    answer_ids = _publish_answers(env, unique_tenant)
    scored = _read_scored(env, answer_ids)
    by_id = {s.answer.answer_id: s for s in scored}
    actions = {
        (suffix, text): by_id[i].action.value
        for i, (suffix, text) in zip(answer_ids, ANSWER_PLAN, strict=True)
    }
    # the spec's Inbox3 answer: 0.50, high; each tenant's policy acts on it
    assert all(
        by_id[i].faithfulness == 0.5
        for i, (_, t) in zip(answer_ids, ANSWER_PLAN, strict=True)
        if t == "inbox3"
    )
    assert actions[("warn", "inbox3")] == "warned"
    assert actions[("regen", "inbox3")] == "regenerated"
    assert actions[("block", "inbox3")] == "blocked"
    assert actions[("block", "supported")] == "none"
    g3 = _expected_guard3(scored)
    assert (
        g3["risk"]["high"] >= 3 and g3["phantom"]["all"] >= 1 and g3["unsupported"]["rejected"] >= 1
    )
    n_answers = len(scored)
    _wait(
        "guard-3 counters scraped",
        lambda: (
            q.scalar("sum(groundwire_faithfulness_scores_total)") == n_answers
            and q.scalar("sum(groundwire_faithfulness_latency_seconds_count)") == n_answers
            and q.scalar("sum(groundwire_faithfulness_score_count)") is not None
        ),
        60,
    )
    assert _nonzero(q.by("sum by (risk) (groundwire_faithfulness_scores_total)", "risk")) == dict(
        g3["risk"]
    )
    assert _nonzero(
        q.by("sum by (action) (groundwire_faithfulness_policy_applied_total)", "action")
    ) == dict(g3["action"])
    assert _nonzero(
        q.by("sum by (verdict) (groundwire_faithfulness_unsupported_claims_total)", "verdict")
    ) == dict(g3["unsupported"])
    assert _nonzero(
        q.by("sum by (finding) (groundwire_faithfulness_uncited_claims_total)", "finding")
    ) == dict(g3["uncited"])
    assert q.scalar("sum(groundwire_faithfulness_phantom_citations_total)") == g3["phantom"]["all"]
    assert q.scalar("sum(groundwire_faithfulness_score_count)") == sum(
        s.faithfulness is not None for s in scored
    )

    # 4. every dashboard expression parses and returns data
    time.sleep(3)  # a few more scrapes so rate() windows hold at least two samples
    exprs = dashboard.expressions(
        json.loads((REPO / "metrics/dashboards/hallucination.json").read_text())
    )
    assert len(exprs) >= 15
    empty = []
    for title, expr in exprs:
        for var, value in GRAFANA_VARS.items():
            expr = expr.replace(var, value)
        if not q.query(expr):  # a parse error fails inside query()
            empty.append(title)
    assert not empty, f"dashboard panels without data: {empty}"

    # 5. the rule files load into a real Prometheus
    groups = q.http.get("/api/v1/rules").json()["data"]["groups"]
    loaded = {rule["name"] for g in groups for rule in g["rules"]}
    for path in (REPO / "metrics" / "rules").glob("*.yml"):
        for group in yaml.safe_load(path.read_text())["groups"]:
            for rule in group["rules"]:
                assert rule.get("alert", rule.get("record")) in loaded
    broken = [r["name"] for g in groups for r in g["rules"] if r.get("health") == "err"]
    assert not broken, f"rules failing to evaluate: {broken}"

    # 6. the weekly report against the live server, evaluated at the last scrape: with
    # the range ending on a sample (and the counters starting at zero), increase() has
    # nothing to extrapolate; "now" would stretch a seconds-old series by up to a scrape
    # interval's share of its life (36 read for 32 routed)
    last_scrape = q.scalar("max(timestamp(groundwire_claims_routed_total))")
    assert last_scrape is not None
    at = datetime.fromtimestamp(last_scrape, UTC).isoformat()
    report = subprocess.run(
        [*GROUNDWIRE, "report", "--since", "1h", "--prometheus-url", q.url, "--json", "--at", at],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert report.returncode == 0, report.stderr
    doc = json.loads(report.stdout)
    # one claim of slack per tier for rounding
    assert abs(doc["candidates_processed"] - good) <= len(expected["tier"])
    assert abs(doc["guard1"]["blocked"] - sum(expected["blocked"].values())) <= 1
    assert doc["guard1_trend"] == "no history"  # the server is minutes old
    assert doc["components"]["guard3_faithfulness"] == "running"
    guard3 = doc["guard3"]
    assert abs(guard3["window"]["answers"] - n_answers) <= 1
    assert abs(guard3["window"]["high_risk"] - g3["risk"]["high"]) <= 1
    assert abs(guard3["actions"].get("blocked", 0) - g3["action"]["blocked"]) <= 1
    text = subprocess.run(
        [*GROUNDWIRE, "report", "--since", "1h"],
        env={**env, "GROUNDWIRE_PROMETHEUS_URL": q.url},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert text.returncode == 0, text.stderr
    assert "Overall hallucination risk" in text.stdout
    assert "Guard 3: read-time faithfulness" in text.stdout
