"""Builds the hallucination dashboard (docs/spec.md §Metrics and alerts) as Grafana JSON.

The dashboard is generated rather than hand-edited so that every panel has the same
datasource wiring, grid layout and units, and so a new component is one more `Row` in
`ROWS`. `metrics/dashboards/hallucination.json` is the checked-in output (Grafana
provisioning and the Helm chart load that file); a unit test fails if it drifts from
this module. Regenerate with:

    python -m groundwire.metrics.dashboard > metrics/dashboards/hallucination.json

Expressions use raw series rather than the recording rules, so the dashboard works
against a Prometheus that has not loaded `metrics/rules/`.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

UID = "groundwire-hallucinations"
TITLE = "groundwire / hallucination dashboard"
DATASOURCE = {"type": "prometheus", "uid": "${datasource}"}
GRID_WIDTH = 24

_BLOCKED = "sum(increase(groundwire_hallucination_blocked_total[$__range]))"
_GROUNDED = 'sum(increase(groundwire_grounding_verdicts_total{verdict!="skipped"}[$__range]))'
_VERDICT = 'sum(increase(groundwire_grounding_verdicts_total{{verdict="{v}"}}[$__range]))'
_BLOCK_RATIO = f"{_BLOCKED} / {_GROUNDED}"


@dataclass(frozen=True)
class Target:
    expr: str
    legend: str = ""


@dataclass(frozen=True)
class Panel:
    title: str
    targets: tuple[Target, ...]
    kind: str = "timeseries"  # timeseries | stat
    unit: str = "short"
    width: int = 8
    height: int = 8
    description: str = ""
    thresholds: tuple[tuple[float | None, str], ...] = ()
    mappings: tuple[dict[str, Any], ...] = ()
    stack: bool = False


@dataclass(frozen=True)
class Row:
    title: str
    panels: tuple[Panel, ...] = field(default_factory=tuple)


# Guard-1 block rate colours follow docs/spec.md §Metrics and alerts: < 0.5 % too
# permissive, 2-4 % healthy, > 8 % a domain shift or extractor regression.
_BLOCK_RATE_THRESHOLDS: tuple[tuple[float | None, str], ...] = (
    (None, "orange"),
    (0.005, "yellow"),
    (0.02, "green"),
    (0.04, "yellow"),
    (0.08, "red"),
)
_RISK_MAPPINGS: tuple[dict[str, Any], ...] = (
    {
        "type": "range",
        "options": {
            "from": 0,
            "to": 0.005,
            "result": {"text": "CHECK VERIFIER", "color": "orange"},
        },
    },
    {
        "type": "range",
        "options": {"from": 0.005, "to": 0.04, "result": {"text": "LOW", "color": "green"}},
    },
    {
        "type": "range",
        "options": {"from": 0.04, "to": 0.08, "result": {"text": "MEDIUM", "color": "yellow"}},
    },
    {
        "type": "range",
        "options": {"from": 0.08, "to": 1, "result": {"text": "HIGH", "color": "red"}},
    },
    {"type": "special", "options": {"match": "nan", "result": {"text": "NO DATA"}}},
)

GUARD1 = Row(
    "Guard 1: write-time grounding",
    (
        Panel(
            "Candidates grounded",
            (Target(_GROUNDED),),
            kind="stat",
            width=4,
            height=5,
            description="Claims the grounding verifier judged (verdict other than skipped).",
        ),
        Panel(
            "Blocked (NOT_SUPPORTED)",
            (Target(_BLOCKED),),
            kind="stat",
            width=4,
            height=5,
            description="Claims dropped because their source turns do not support them.",
        ),
        Panel(
            "Block rate",
            (Target(_BLOCK_RATIO),),
            kind="stat",
            unit="percentunit",
            width=4,
            height=5,
            thresholds=_BLOCK_RATE_THRESHOLDS,
            description="Healthy 2-4 %. Below 0.5 % the verifier may be too permissive; "
            "above 8 % look for a domain shift or extractor regression.",
        ),
        Panel(
            "Partial (confidence penalty)",
            (Target(f"{_VERDICT.format(v='partial')} / {_GROUNDED}"),),
            kind="stat",
            unit="percentunit",
            width=4,
            height=5,
        ),
        Panel(
            "Verifier UNKNOWN",
            (Target(f"{_VERDICT.format(v='unknown')} / {_GROUNDED}"),),
            kind="stat",
            unit="percentunit",
            width=4,
            height=5,
            thresholds=((None, "green"), (0.05, "red")),
        ),
        Panel(
            "Overall hallucination risk",
            (Target(_BLOCK_RATIO),),
            kind="stat",
            width=4,
            height=5,
            mappings=_RISK_MAPPINGS,
            description="The guard-1 block rate over the range, as the overall risk level.",
        ),
        Panel(
            "Grounding verdicts",
            (
                Target(
                    "sum by (verdict) "
                    "(rate(groundwire_grounding_verdicts_total[$__rate_interval]))",
                    "{{verdict}}",
                ),
            ),
            unit="reqps",
            stack=True,
        ),
        Panel(
            "Block rate (1h window)",
            (
                Target(
                    "sum(rate(groundwire_hallucination_blocked_total[1h])) / "
                    'sum(rate(groundwire_grounding_verdicts_total{verdict!="skipped"}[1h]))',
                    "block rate",
                ),
            ),
            unit="percentunit",
            thresholds=_BLOCK_RATE_THRESHOLDS,
        ),
        Panel(
            "Grounding verifier latency",
            tuple(
                Target(
                    f"histogram_quantile({q}, sum by (le) "
                    "(rate(groundwire_grounding_latency_seconds_bucket[$__rate_interval])))",
                    f"p{int(q * 100)}",
                )
                for q in (0.5, 0.99)
            ),
            unit="s",
            thresholds=((None, "green"), (0.3, "red")),
            description="A p99 above 300 ms means the verifier is saturated or far away.",
        ),
    ),
)

SCREENING = Row(
    "Screening: hedges, citations, re-entry",
    (
        Panel(
            "Hedge detections by category",
            (
                Target(
                    "sum by (category) (rate(groundwire_hedge_detections_total[$__rate_interval]))",
                    "{{category}}",
                ),
            ),
            unit="reqps",
            stack=True,
        ),
        Panel(
            "Citations by type and verification",
            (
                Target(
                    "sum by (type, verified) (rate(groundwire_citations_total[$__rate_interval]))",
                    "{{type}} verified={{verified}}",
                ),
            ),
            unit="reqps",
            stack=True,
        ),
        Panel(
            "Re-entry rejections by reason",
            (
                Target(
                    "sum by (reason) (rate(groundwire_reentry_rejections_total[$__rate_interval]))",
                    "{{reason}}",
                ),
            ),
            unit="reqps",
            stack=True,
            description="Evidence refused because it is model output re-entering the store.",
        ),
        Panel(
            "Citation verdicts: from cache or checked",
            (
                Target(
                    "sum by (source) (rate(groundwire_citation_lookups_total[$__rate_interval]))",
                    "{{source}}",
                ),
                Target(
                    "sum by (op) (rate(groundwire_citation_cache_errors_total[$__rate_interval]))",
                    "Redis cache errors ({{op}})",
                ),
            ),
            unit="reqps",
            description="local = this process's cache, shared = the Redis cache, checked = a "
            "real ADR/git/URL/issue check. Cache errors fall back to checks.",
        ),
    ),
)

DEDUP = Row(
    "Near-duplicate detection",
    (
        Panel(
            "Dedup results",
            (
                Target(
                    "sum by (result) (rate(groundwire_dedup_results_total[$__rate_interval]))",
                    "{{result}}",
                ),
            ),
            unit="reqps",
            stack=True,
            width=12,
        ),
        Panel(
            "Dedup fail-closed share",
            (
                Target(
                    'sum(rate(groundwire_dedup_results_total{result="failed"}[$__rate_interval]))'
                    " / sum(rate(groundwire_dedup_results_total[$__rate_interval]))",
                    "failed",
                ),
            ),
            unit="percentunit",
            width=12,
            thresholds=((None, "green"), (0.05, "red")),
        ),
    ),
)

PIPELINE = Row(
    "Pipeline health",
    (
        Panel(
            "Workers up",
            (Target('sum(up{job="groundwire-worker"})'),),
            kind="stat",
            width=4,
            thresholds=((None, "red"), (1, "green")),
        ),
        Panel(
            "Claims routed by tier",
            (
                Target(
                    "sum by (tier) (rate(groundwire_claims_routed_total[$__rate_interval]))",
                    "{{tier}}",
                ),
            ),
            unit="reqps",
            stack=True,
            width=10,
        ),
        Panel(
            "Claims routed by reason",
            (
                Target(
                    "sum by (reason) (rate(groundwire_claims_routed_total[$__rate_interval]))",
                    "{{reason}}",
                ),
            ),
            unit="reqps",
            stack=True,
            width=10,
        ),
        Panel(
            "Stage latency p99",
            (
                Target(
                    "histogram_quantile(0.99, sum by (stage, le) "
                    "(rate(groundwire_stage_latency_seconds_bucket[$__rate_interval])))",
                    "{{stage}}",
                ),
            ),
            unit="s",
        ),
        Panel(
            "Dead-lettered records by reason",
            (
                Target(
                    "sum by (reason) (rate(groundwire_dlq_records_total[$__rate_interval]))",
                    "{{reason}}",
                ),
            ),
            unit="reqps",
            stack=True,
        ),
        Panel(
            "Consumer lag",
            (Target("sum by (group, topic) (groundwire_consumer_lag)", "{{group}} {{topic}}"),),
            unit="short",
        ),
    ),
)

REVIEW = Row(
    "Review queue",
    (
        Panel(
            "Pending claims",
            (Target("max(groundwire_review_queue_depth)"),),
            kind="stat",
            width=4,
            thresholds=((None, "green"), (8000, "yellow"), (10000, "red")),
        ),
        Panel(
            "Oldest pending claim",
            (Target("max(groundwire_review_oldest_item_age_seconds)"),),
            kind="stat",
            unit="s",
            width=4,
            thresholds=((None, "green"), (259200, "yellow"), (604800, "red")),
        ),
        Panel(
            "Decisions",
            (
                Target(
                    "sum by (decision) (rate(groundwire_review_decisions_total[$__rate_interval]))",
                    "{{decision}}",
                ),
            ),
            unit="reqps",
            stack=True,
        ),
        Panel(
            "Time to decision p50 / p90",
            (
                Target(
                    "histogram_quantile(0.5, sum by (le) "
                    "(rate(groundwire_review_time_to_decision_seconds_bucket[$__rate_interval])))",
                    "p50",
                ),
                Target(
                    "histogram_quantile(0.9, sum by (le) "
                    "(rate(groundwire_review_time_to_decision_seconds_bucket[$__rate_interval])))",
                    "p90",
                ),
            ),
            unit="s",
        ),
        Panel(
            "Overflow to blocked (review_queue_full)",
            (
                Target(
                    "sum by (limit) (rate(groundwire_review_overflow_total[$__rate_interval]))",
                    "{{limit}}",
                ),
            ),
            unit="reqps",
            stack=True,
        ),
        Panel(
            "Refused requests",
            (
                Target(
                    "sum by (denial) (rate(groundwire_review_denied_total[$__rate_interval]))",
                    "{{denial}}",
                ),
            ),
            unit="reqps",
            stack=True,
        ),
        Panel(
            "Outbox not yet relayed",
            (Target("max(groundwire_review_outbox_entries)", "entries"),),
            unit="short",
        ),
    ),
)

_SCAN_ACTION = 'sum(increase(groundwire_consistency_actions_total{{action="{a}"}}[$__range]))'
_CLUSTERS = "sum(increase(groundwire_consistency_clusters_found_total[$__range]))"
_SCANNED = "sum(increase(groundwire_consistency_memories_scanned_total[$__range]))"

# Guard 2 (store-time consistency): the nightly scan's findings and what it did, and the
# memory view's changes. Clusters per 10k memories follow docs/spec.md: 1-5 healthy,
# above 20 a threshold or an extractor change, below 0.5 a threshold too high.
GUARD2 = Row(
    "Guard 2: consistency scan",
    (
        Panel(
            "Last scan",
            (Target("time() - max(groundwire_consistency_last_scan_timestamp_seconds)"),),
            kind="stat",
            unit="s",
            width=3,
            height=5,
            thresholds=((None, "green"), (129_600, "yellow"), (172_800, "red")),
            mappings=(
                {
                    "type": "range",
                    "options": {"from": 1e9, "to": 1e12, "result": {"text": "never"}},
                },
            ),
            description="Since the last scan reported (the alert fires after two days).",
        ),
        Panel("Clusters found", (Target(_CLUSTERS),), kind="stat", width=3, height=5),
        Panel(
            "Clusters per 10k memories",
            (Target(f"10000 * {_CLUSTERS} / {_SCANNED}"),),
            kind="stat",
            width=3,
            height=5,
            thresholds=(
                (None, "orange"),
                (0.5, "yellow"),
                (1, "green"),
                (5, "yellow"),
                (20, "red"),
            ),
            description="Healthy 1-5 per scan; above 20 a threshold misconfiguration or a "
            "batch of conflicting extractions; below 0.5 the similarity threshold is too high.",
        ),
        Panel(
            "Auto-merged (equivalent)",
            (Target(_SCAN_ACTION.format(a="merge")),),
            kind="stat",
            width=3,
            height=5,
        ),
        Panel(
            "Auto-superseded (temporal)",
            (Target(_SCAN_ACTION.format(a="supersede")),),
            kind="stat",
            width=3,
            height=5,
        ),
        Panel(
            "Flagged (contradiction)",
            (Target(_SCAN_ACTION.format(a="flag")),),
            kind="stat",
            width=3,
            height=5,
            thresholds=((None, "green"), (1, "yellow"), (11, "red")),
            description="Contradictions sent to the review queue; the alert fires above 10 "
            "in one scan.",
        ),
        Panel(
            "Superseded at write time",
            (Target("sum(increase(groundwire_consistency_write_supersessions_total[$__range]))"),),
            kind="stat",
            width=3,
            height=5,
            description="A newer value of a stateful predicate replaced the old one as the "
            "claim became a memory.",
        ),
        Panel(
            "Scan duration (mean)",
            (
                Target(
                    "sum(increase(groundwire_consistency_scan_duration_seconds_sum[$__range]))"
                    " / sum(increase("
                    "groundwire_consistency_scan_duration_seconds_count[$__range]))"
                ),
            ),
            kind="stat",
            unit="s",
            width=3,
            height=5,
        ),
        Panel(
            "Memory changes",
            (
                Target(
                    "sum by (change) (rate(groundwire_memory_changes_total[$__rate_interval]))",
                    "{{change}}",
                ),
            ),
            unit="reqps",
            stack=True,
            width=12,
            description="New versions on the memories topic, by what changed.",
        ),
        Panel(
            "Commands applied",
            (
                Target(
                    "sum by (result) (rate(groundwire_memory_commands_total[$__rate_interval]))",
                    "{{result}}",
                ),
            ),
            unit="reqps",
            width=12,
            description="Scan and retraction commands: applied, stale (the memories changed "
            "since the scan read them; the next scan plans again) or nothing to do.",
        ),
    ),
)

_ANSWERS = "sum(increase(groundwire_faithfulness_scores_total[$__range]))"
_ACTION = 'sum(increase(groundwire_faithfulness_policy_applied_total{{action="{a}"}}[$__range]))'

# Guard 3 (read-time faithfulness, opt-in): empty until the answers stage or the
# endpoint scores an answer. High-risk colours follow docs/spec.md: below 1 % healthy
# for general chat, the alert above 5 %.
GUARD3 = Row(
    "Guard 3: read-time faithfulness",
    (
        Panel(
            "Answers scored",
            (Target(_ANSWERS),),
            kind="stat",
            width=4,
            height=5,
            description="Answers scored by the answers stage or POST /v1/answers:score.",
        ),
        Panel(
            "Mean faithfulness",
            (
                Target(
                    "sum(increase(groundwire_faithfulness_score_sum[$__range])) / "
                    "sum(increase(groundwire_faithfulness_score_count[$__range]))"
                ),
            ),
            kind="stat",
            unit="percentunit",
            width=4,
            height=5,
            thresholds=((None, "red"), (0.7, "yellow"), (0.9, "green")),
            description="Supported / factual claims, over answers with a factual claim.",
        ),
        Panel(
            "High-risk answers",
            (
                Target(
                    "sum(increase(groundwire_faithfulness_scores_total"
                    f'{{risk="high"}}[$__range])) / {_ANSWERS}'
                ),
            ),
            kind="stat",
            unit="percentunit",
            width=4,
            height=5,
            thresholds=((None, "green"), (0.01, "yellow"), (0.05, "red")),
            description="Healthy below 1 % (0.1 % with block); the alert fires above 5 %.",
        ),
        Panel(
            "Regenerated",
            (Target(_ACTION.format(a="regenerated")),),
            kind="stat",
            width=4,
            height=5,
        ),
        Panel(
            "Blocked",
            (Target(_ACTION.format(a="blocked")),),
            kind="stat",
            width=4,
            height=5,
        ),
        Panel(
            "Phantom citations",
            (Target("sum(increase(groundwire_faithfulness_phantom_citations_total[$__range]))"),),
            kind="stat",
            width=4,
            height=5,
            thresholds=((None, "green"), (1, "yellow")),
            description="Citations inside answers that name no source of their context.",
        ),
        Panel(
            "Answers by risk",
            (
                Target(
                    "sum by (risk) (rate(groundwire_faithfulness_scores_total[$__rate_interval]))",
                    "{{risk}}",
                ),
            ),
            unit="reqps",
            stack=True,
        ),
        Panel(
            "Unsupported claims and uncited findings",
            (
                Target(
                    "sum by (verdict) (rate("
                    "groundwire_faithfulness_unsupported_claims_total[$__rate_interval]))",
                    "{{verdict}}",
                ),
                Target(
                    "sum by (finding) (rate("
                    "groundwire_faithfulness_uncited_claims_total[$__rate_interval]))",
                    "uncited: {{finding}}",
                ),
            ),
            unit="reqps",
        ),
        Panel(
            "Faithfulness latency and policy actions",
            (
                Target(
                    "histogram_quantile(0.99, sum by (le) "
                    "(rate(groundwire_faithfulness_latency_seconds_bucket[$__rate_interval])))",
                    "p99 latency (s)",
                ),
                Target(
                    "sum by (action) (rate("
                    "groundwire_faithfulness_policy_applied_total[$__rate_interval]))",
                    "{{action}}",
                ),
            ),
            description="p99 scoring latency (regeneration included) and what the policies did.",
        ),
    ),
)

# One row per component that exists.
ROWS: tuple[Row, ...] = (GUARD1, GUARD2, GUARD3, SCREENING, DEDUP, REVIEW, PIPELINE)


def _panel_json(panel: Panel, panel_id: int, x: int, y: int) -> dict[str, Any]:
    defaults: dict[str, Any] = {"unit": panel.unit}
    if panel.thresholds:
        defaults["thresholds"] = {
            "mode": "absolute",
            "steps": [{"color": color, "value": value} for value, color in panel.thresholds],
        }
    if panel.mappings:
        defaults["mappings"] = list(panel.mappings)
    if panel.kind == "timeseries":
        defaults["custom"] = {
            "drawStyle": "line",
            "fillOpacity": 20 if panel.stack else 0,
            "stacking": {"mode": "normal" if panel.stack else "none", "group": "A"},
            "thresholdsStyle": {"mode": "line" if panel.thresholds else "off"},
        }
        options: dict[str, Any] = {
            "legend": {"displayMode": "list", "placement": "bottom", "showLegend": True},
            "tooltip": {"mode": "multi", "sort": "desc"},
        }
    else:
        options = {
            "reduceOptions": {"calcs": ["lastNotNull"], "fields": "", "values": False},
            "colorMode": "background" if (panel.thresholds or panel.mappings) else "value",
            "graphMode": "none",
            "textMode": "auto",
        }
    return {
        "id": panel_id,
        "type": panel.kind,
        "title": panel.title,
        "description": panel.description,
        "datasource": DATASOURCE,
        "gridPos": {"h": panel.height, "w": panel.width, "x": x, "y": y},
        "fieldConfig": {"defaults": defaults, "overrides": []},
        "options": options,
        "targets": [
            {
                "refId": chr(ord("A") + i),
                "datasource": DATASOURCE,
                "expr": target.expr,
                "legendFormat": target.legend or "__auto",
                "range": panel.kind == "timeseries",
                "instant": panel.kind == "stat",
            }
            for i, target in enumerate(panel.targets)
        ],
    }


def build(rows: tuple[Row, ...] = ROWS) -> dict[str, Any]:
    """The dashboard as a dict: rows laid out top to bottom, panels left to right."""
    panels: list[dict[str, Any]] = []
    next_id = 1
    y = 0
    for row in rows:
        panels.append(
            {
                "id": next_id,
                "type": "row",
                "title": row.title,
                "collapsed": False,
                "gridPos": {"h": 1, "w": GRID_WIDTH, "x": 0, "y": y},
                "panels": [],
            }
        )
        next_id += 1
        y += 1
        x = 0
        line_height = 0
        for panel in row.panels:
            if x + panel.width > GRID_WIDTH:
                x, y, line_height = 0, y + line_height, 0
            panels.append(_panel_json(panel, next_id, x, y))
            next_id += 1
            x += panel.width
            line_height = max(line_height, panel.height)
        y += line_height
    return {
        "uid": UID,
        "title": TITLE,
        "description": "Hallucination dashboard: guard effectiveness, pipeline health.",
        "tags": ["groundwire", "hallucination"],
        "timezone": "browser",
        "editable": True,
        "graphTooltip": 1,
        "schemaVersion": 39,
        "version": 1,
        "refresh": "30s",
        "time": {"from": "now-24h", "to": "now"},
        "templating": {
            "list": [
                {
                    "name": "datasource",
                    "label": "Data source",
                    "type": "datasource",
                    "query": "prometheus",
                    "current": {},
                    "hide": 0,
                    "refresh": 1,
                    "regex": "",
                    "options": [],
                }
            ]
        },
        "annotations": {"list": []},
        "links": [],
        "panels": panels,
    }


def render() -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def expressions(dashboard: dict[str, Any]) -> list[tuple[str, str]]:
    """(panel title, PromQL) for every target of a dashboard dict, rows included."""
    found: list[tuple[str, str]] = []
    for panel in dashboard.get("panels", []):
        for inner in (panel, *panel.get("panels", [])):
            for target in inner.get("targets", []):
                if target.get("expr"):
                    found.append((inner["title"], target["expr"]))
    return found


if __name__ == "__main__":
    sys.stdout.write(render())
