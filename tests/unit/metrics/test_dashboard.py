"""The hallucination dashboard JSON: generated, stable, datasource variable, valid PromQL."""

from __future__ import annotations

import json
import re

import yaml

from groundwire.metrics import dashboard
from groundwire.metrics.registry import REGISTRY
from tests.support import REPO

DASHBOARD = REPO / "metrics" / "dashboards" / "hallucination.json"
GRAFANA_VARS = {"$__rate_interval": "1m", "$__range": "1h", "$__interval": "15s"}


def _loaded() -> dict:
    return json.loads(DASHBOARD.read_text())


def test_checked_in_json_matches_generator() -> None:
    assert DASHBOARD.read_text() == dashboard.render(), (
        "regenerate: python -m groundwire.metrics.dashboard > metrics/dashboards/hallucination.json"
    )


def test_stable_uid_and_datasource_variable() -> None:
    d = _loaded()
    assert d["uid"] == "groundwire-hallucinations"
    variables = {v["name"]: v for v in d["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource"
    assert variables["datasource"]["query"] == "prometheus"
    for panel in d["panels"]:
        if panel["type"] == "row":
            continue
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
        for target in panel["targets"]:
            assert target["datasource"]["uid"] == "${datasource}"


def test_a_row_per_existing_guard_plus_pipeline_health() -> None:
    rows = [p["title"] for p in _loaded()["panels"] if p["type"] == "row"]
    assert any(r.startswith("Guard 1") for r in rows)
    assert "Pipeline health" in rows
    assert any(r.startswith("Guard 3") for r in rows)
    assert any(r.startswith("Guard 2") for r in rows)


def test_panels_have_unique_ids_and_do_not_overlap() -> None:
    panels = _loaded()["panels"]
    ids = [p["id"] for p in panels]
    assert len(ids) == len(set(ids))
    cells: set[tuple[int, int]] = set()
    for p in panels:
        g = p["gridPos"]
        assert g["x"] >= 0 and g["x"] + g["w"] <= 24
        for x in range(g["x"], g["x"] + g["w"]):
            for y in range(g["y"], g["y"] + g["h"]):
                assert (x, y) not in cells, f"panel {p['title']} overlaps another"
                cells.add((x, y))


def test_spec_dashboard_signals_are_shown() -> None:
    exprs = " ".join(e for _, e in dashboard.expressions(_loaded()))
    for metric in (
        "groundwire_hallucination_blocked_total",
        "groundwire_grounding_verdicts_total",
        "groundwire_grounding_latency_seconds_bucket",
        "groundwire_claims_routed_total",
        "groundwire_hedge_detections_total",
        "groundwire_citations_total",
        "groundwire_dedup_results_total",
        "groundwire_reentry_rejections_total",
        "groundwire_stage_latency_seconds_bucket",
        "groundwire_dlq_records_total",
        "groundwire_consumer_lag",
        "groundwire_consistency_clusters_found_total",
        "groundwire_consistency_actions_total",
        "groundwire_consistency_last_scan_timestamp_seconds",
        "groundwire_faithfulness_scores_total",
        "groundwire_faithfulness_score_sum",
        "groundwire_faithfulness_phantom_citations_total",
    ):
        assert metric in exprs, f"no panel shows {metric}"


def test_dashboard_uses_only_defined_metrics() -> None:
    families = list(REGISTRY.collect())
    names = {f.name for f in families} | {f"{f.name}_total" for f in families} | {"up"}
    names |= {
        f"{f.name}_{part}"
        for f in families
        if f.type == "histogram"
        for part in ("bucket", "sum", "count")
    }
    for title, expr in dashboard.expressions(_loaded()):
        for metric in re.findall(r"\bgroundwire_[a-z_]+", expr):
            assert metric in names, f"{title}: {metric} is not defined"


def substitute(expr: str) -> str:
    for var, val in GRAFANA_VARS.items():
        expr = expr.replace(var, val)
    return expr


def test_grafana_provisioning_points_at_the_dashboard_dir() -> None:
    prov = REPO / "metrics" / "grafana" / "provisioning"
    ds = yaml.safe_load((prov / "datasources" / "prometheus.yml").read_text())
    assert ds["datasources"][0]["type"] == "prometheus"
    providers = yaml.safe_load((prov / "dashboards" / "groundwire.yml").read_text())["providers"]
    assert providers[0]["type"] == "file"
    assert providers[0]["options"]["path"].startswith("/var/lib/grafana/dashboards")
