"""`groundwire report`'s guard-2 section from canned Prometheus answers: the scans, the
clusters per 10k memories and the spec's reading of it, the actions, the auto-resolution
rate and the flags' trend."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from groundwire.metrics.report import build_report, format_text
from groundwire.metrics.report_consistency import assess_clusters, clusters_per_10k
from tests.unit.metrics.test_report import NOW, canned


def _rows(answer: dict[str, Any]) -> list[dict[str, Any]]:
    assert answer["status"] == "success", answer
    return list(answer["data"]["result"])


def _sample(labels: dict[str, str], value: float) -> dict[str, Any]:
    return {"metric": labels, "value": [NOW.timestamp(), repr(float(value))]}


def query(promql: str, _at: Any) -> list[dict[str, Any]]:
    """canned() for the rest of the report; a made-up week of nightly scans here."""
    prior = "offset" in promql
    if promql.startswith("count("):
        return [_sample({}, 40)] if "consistency" in promql else []
    if "groundwire_consistency" not in promql:
        return _rows(canned(promql))
    if 'action="flag"' in promql:
        return [_sample({}, 3 if prior else 12)]
    if "by (action)" in promql:
        return [
            _sample({"action": "merge"}, 21),
            _sample({"action": "supersede"}, 9),
            _sample({"action": "flag"}, 12),
        ]
    if "by (verdict)" in promql:
        return [_sample({"verdict": "equivalent"}, 21), _sample({"verdict": "distinct"}, 4)]
    if "by (outcome)" in promql:
        return [_sample({"outcome": "complete"}, 6), _sample({"outcome": "partial"}, 1)]
    if "clusters_found" in promql:
        return [_sample({}, 28)]
    if "memories_scanned" in promql:
        return [_sample({}, 70_000)]
    if "write_supersessions" in promql:
        return [_sample({}, 130)]
    if "duration_seconds_sum" in promql:
        return [_sample({}, 7 * 42.0)]
    if "duration_seconds_count" in promql:
        return [_sample({}, 7)]
    if "last_scan_timestamp" in promql:
        return [_sample({}, (NOW - timedelta(hours=3)).timestamp())]
    raise AssertionError(f"unexpected query {promql}")


def test_guard2_section() -> None:
    report = build_report(query, timedelta(days=7), NOW)
    g2 = report.guard2
    assert g2 is not None
    assert g2.window.flags == 12 and [p.flags for p in g2.prior] == [3, 3, 3, 3]
    assert g2.flags_trend == "rising"
    assert g2.clusters_per_10k == pytest.approx(28 / 70_000 * 10_000)
    assert g2.assessment == "healthy (1-5)"
    assert g2.auto_resolution_rate == pytest.approx(30 / 42)
    assert g2.scans == {"complete": 6, "partial": 1}
    assert g2.write_supersessions == 130
    assert g2.mean_scan_seconds == pytest.approx(42.0)
    text = format_text(report)
    assert "Guard 2: consistency scan\n" in text
    assert "last run:                  3 hours ago" in text
    assert "clusters found:            28 (4.0 per 10k memories)" in text
    assert "flagged (contradiction):   12" in text
    assert "auto-merged (equivalent):  21" in text
    assert "auto-resolution rate:      71%" in text
    assert report.to_dict()["guard2"]["window"]["flags"] == 12


def test_not_running_without_series() -> None:
    report = build_report(lambda q, at: _rows(canned(q)), timedelta(days=7), NOW)
    assert report.guard2 is None
    assert "Guard 2: consistency scan:   not running (no series)" in format_text(report)


@pytest.mark.parametrize(
    ("per_10k", "reading"),
    [
        (None, "no memories scanned in the window"),
        (0.2, "below 0.5: the similarity threshold may be too high"),
        (0.7, "below the healthy 1-5 range"),
        (3.0, "healthy (1-5)"),
        (12.0, "above the healthy 1-5 range"),
        (25.0, "above 20: a threshold misconfiguration or a batch of conflicting extractions"),
    ],
)
def test_the_spec_ranges(per_10k: float | None, reading: str) -> None:
    assert assess_clusters(per_10k) == reading


def test_ratio() -> None:
    assert clusters_per_10k(5, 10_000) == 5.0
    assert clusters_per_10k(5, 0) is None and clusters_per_10k(None, 10) is None
