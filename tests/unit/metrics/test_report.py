"""`groundwire report`: computation and formatting from canned Prometheus API answers.

A local HTTP server answers /api/v1/query with the JSON shapes Prometheus returns (vector
results, error bodies), so the client, the report and the CLI are exercised end to end
without a Prometheus; the live test in tests/integration/test_prometheus_live.py runs the
same command against a real one.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from typer.testing import CliRunner

from groundwire.metrics.report import (
    PrometheusClient,
    PrometheusUnavailable,
    assess_block_rate,
    build_report,
    format_text,
    overall_risk,
    parse_duration,
    trend,
)
from groundwire.streams.cli import app

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def _vector(*samples: tuple[dict[str, str], float]) -> dict[str, Any]:
    return {
        "status": "success",
        "data": {
            "resultType": "vector",
            "result": [
                {"metric": labels, "value": [NOW.timestamp(), repr(float(v))]}
                for labels, v in samples
            ],
        },
    }


def canned(query: str) -> dict[str, Any]:
    """What Prometheus would answer for the report's queries in one made-up week."""
    prior = "offset" in query
    if query.startswith("count("):
        return _vector()  # guards 2 and 3 not running
    if "by (tier)" in query:
        return _vector(
            ({"tier": "auto_approve"}, 700),
            ({"tier": "flag_review"}, 200),
            ({"tier": "block"}, 100),
        )
    if "by (reason)" in query and "claims_routed" in query:
        return _vector(({"reason": "trusted_source"}, 600), ({"reason": "not_supported"}, 90))
    if "by (verdict)" in query:
        return _vector(
            ({"verdict": "supported"}, 800),
            ({"verdict": "partial"}, 100),
            ({"verdict": "not_supported"}, 90.4),
            ({"verdict": "unknown"}, 9.6),
            ({"verdict": "skipped"}, 0),
        )
    if 'verdict!="skipped"' in query:
        return _vector(({}, 1000.0))
    if "hallucination_blocked" in query:
        return _vector(({}, 30.0 if prior else 90.0))
    if "by (result)" in query:
        return _vector(({"result": "unique"}, 950), ({"result": "failed"}, 5))
    if "by (reason)" in query and "dlq" in query:
        return _vector(({"reason": "not_json"}, 3), ({"reason": "too_large"}, 0))
    if "by (reason)" in query:
        return _vector(({"reason": "reserved_prefix"}, 4))
    if "by (category)" in query:
        return _vector(({"category": "personal_speculation"}, 40))
    return {"status": "error", "errorType": "bad_data", "error": f"unexpected query {query}"}


class _Handler(BaseHTTPRequestHandler):
    mode = "ok"

    def do_GET(self) -> None:
        url = urlparse(self.path)
        if self.mode == "html":
            body, status = b"<html>not prometheus</html>", 200
        elif self.mode == "error":
            body = json.dumps(
                {"status": "error", "errorType": "execution", "error": "query timed out"}
            ).encode()
            status = 503
        else:
            assert url.path == "/api/v1/query"
            params = parse_qs(url.query)
            assert float(params["time"][0]) == pytest.approx(NOW.timestamp())
            answer = canned(params["query"][0])
            body, status = (
                json.dumps(answer).encode(),
                200 if answer["status"] == "success" else 400,
            )
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture
def prometheus() -> Iterator[tuple[str, type[_Handler]]]:
    handler = type("Handler", (_Handler,), {"mode": "ok"})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler
    finally:
        server.shutdown()
        server.server_close()


def test_report_numbers_from_api(prometheus: tuple[str, type[_Handler]]) -> None:
    url, _ = prometheus
    with PrometheusClient(url) as client:
        report = build_report(client.query, timedelta(days=7), NOW)
    assert report.candidates_processed == 1000
    assert report.routed_by_tier == {"auto_approve": 700, "flag_review": 200, "block": 100}
    assert report.guard1.grounded == 1000 and report.guard1.blocked == 90
    assert report.guard1.block_rate == pytest.approx(0.09)
    assert [p.block_rate for p in report.guard1_prior] == [pytest.approx(0.03)] * 4
    assert report.guard1_prior[3].end == (NOW - timedelta(days=28)).isoformat()
    assert report.guard1_trend == "rising"
    assert report.overall_risk == "HIGH"
    assert report.partial_rate == pytest.approx(0.1)
    assert report.grounding_verdicts["not_supported"] == 90  # rounded from increase()
    assert report.dlq_records == {"not_json": 3, "too_large": 0}
    assert report.components["guard2_consistency_scan"].startswith("not running")


def test_text_format(prometheus: tuple[str, type[_Handler]]) -> None:
    url, _ = prometheus
    with PrometheusClient(url) as client:
        text = format_text(build_report(client.query, timedelta(days=7), NOW))
    assert "last 1w" in text
    assert "Candidates processed:        1,000" in text
    assert "blocked (NOT_SUPPORTED):   90 (9.00%)" in text
    assert "trend vs prior 4 windows:  rising" in text
    assert text.count("3.00% of 1,000 grounded") == 4
    assert "dead-lettered records:     not_json 3\n" in text  # zero counts left out
    assert "Overall hallucination risk:  HIGH" in text


def test_cli_json_and_text(prometheus: tuple[str, type[_Handler]]) -> None:
    url, _ = prometheus
    runner = CliRunner()
    args = ["report", "--since", "7d", "--prometheus-url", url, "--at", NOW.isoformat()]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["guard1"]["blocked"] == 90 and doc["guard1_trend"] == "rising"
    result = runner.invoke(app, args, env={"GROUNDWIRE_PROMETHEUS_URL": "http://127.0.0.1:1"})
    assert result.exit_code == 0 and "Overall hallucination risk" in result.output


@pytest.mark.parametrize(("mode", "message"), [("error", "query timed out"), ("html", "not JSON")])
def test_server_errors_are_clear(
    prometheus: tuple[str, type[_Handler]], mode: str, message: str
) -> None:
    url, handler = prometheus
    handler.mode = mode
    with PrometheusClient(url) as client, pytest.raises(PrometheusUnavailable, match=message):
        client.query("up", NOW)


def test_unreachable_prometheus_exits_nonzero_with_message() -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = CliRunner().invoke(
        app, ["report", "--prometheus-url", f"http://127.0.0.1:{port}", "--timeout", "2"]
    )
    assert result.exit_code == 1
    assert f"cannot reach Prometheus at http://127.0.0.1:{port}" in result.output


def test_env_var_is_the_default_url() -> None:
    result = CliRunner().invoke(
        app, ["report", "--timeout", "2"], env={"GROUNDWIRE_PROMETHEUS_URL": "http://127.0.0.1:1"}
    )
    assert result.exit_code == 1
    assert "http://127.0.0.1:1" in result.output


@pytest.mark.parametrize("bad", ["7x", "0d", "400d", "", "-1d"])
def test_invalid_since_is_a_usage_error(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_duration(bad)
    result = CliRunner().invoke(app, ["report", "--since", bad])
    assert result.exit_code == 2


def test_durations() -> None:
    assert parse_duration("7d") == timedelta(days=7)
    assert parse_duration("2w") == timedelta(days=14)
    assert parse_duration("90m") == timedelta(minutes=90)


@pytest.mark.parametrize(
    ("current", "prior", "expected"),
    [
        (0.03, [0.03, 0.031, 0.029, 0.03], "flat"),
        (0.06, [0.03, 0.03, 0.03, 0.03], "rising"),
        (0.01, [0.03, 0.03, None, 0.03], "falling"),
        (0.03, [None, None, None, None], "no history"),
        (None, [0.03], "no data"),
        (0.0015, [0.0, 0.0, 0.0, 0.0], "flat"),  # under 0.2 pp is noise
    ],
)
def test_trend(current: float | None, prior: list[float | None], expected: str) -> None:
    assert trend(current, prior) == expected


def test_assessment_and_risk_follow_the_spec_ranges() -> None:
    assert assess_block_rate(0.03).startswith("healthy")
    assert assess_block_rate(0.001).startswith("below 0.5 %")
    assert assess_block_rate(0.09).startswith("above 8 %")
    assert overall_risk(0.03) == "LOW"
    assert overall_risk(0.06) == "MEDIUM"
    assert overall_risk(0.2) == "HIGH"
    assert overall_risk(None) == "NO DATA"
