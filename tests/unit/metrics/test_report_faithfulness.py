"""The weekly report's guard-3 section (metrics/report_faithfulness.py) from canned
Prometheus answers: filled when guard 3's series exist, one line when they do not."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from groundwire.metrics.report import build_report, format_text

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def sample(value: float, **labels: str) -> dict[str, Any]:
    return {"metric": labels, "value": [NOW.timestamp(), repr(value)]}


def canned(running: bool):  # type: ignore[no-untyped-def]
    def query(promql: str, at: datetime) -> list[dict[str, Any]]:
        prior = "offset" in promql
        if promql.startswith("count("):
            return [sample(12)] if running and "faithfulness" in promql else []
        if "faithfulness_scores_total" in promql and "by (risk)" in promql:
            return [sample(2_300, risk="none"), sample(23, risk="high"), sample(18, risk="low")]
        if 'faithfulness_scores_total{risk="high"}' in promql:
            return [sample(10 if prior else 23)]
        if "faithfulness_scores_total" in promql:
            return [sample(2_341)]
        if "faithfulness_score_sum" in promql:
            return [sample(2_200.5)]
        if "faithfulness_score_count" in promql:
            return [sample(2_341)]
        if "policy_applied" in promql:
            return [sample(2_000, action="none"), sample(12, action="regenerated")]
        if "unsupported_claims" in promql:
            return [sample(40, verdict="unsupported"), sample(3, verdict="rejected")]
        if "phantom_citations" in promql:
            return [sample(5)]
        return []

    return query


def test_a_running_guard3_fills_its_section() -> None:
    report = build_report(canned(True), timedelta(days=7), NOW)
    g3 = report.guard3
    assert g3 is not None
    assert g3.window.answers == 2_341 and g3.window.high_risk == 23
    assert round(g3.mean_faithfulness or 0, 2) == 0.94
    assert g3.trend == "rising"  # 23 of 2,341 against 10 of 2,341 before
    assert g3.actions["regenerated"] == 12 and g3.phantom_citations == 5
    text = format_text(report)
    assert "Guard 3: read-time faithfulness" in text
    assert "mean faithfulness:         0.94" in text
    assert "high-risk answers:         23 (0.98%)" in text
    assert "regenerated 12" in text and "rejected 3" in text


def test_guard3_off_is_one_line() -> None:
    report = build_report(canned(False), timedelta(days=7), NOW)
    assert report.guard3 is None
    assert "Guard 3: faithfulness:       not running (no series)" in format_text(report)
