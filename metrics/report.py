"""The weekly hallucination-risk report (docs/spec.md §Metrics and alerts), computed
from the Prometheus HTTP API.

It gives: total candidates processed, the guard-1 block rate with its trend against the
prior four weeks, guard-2 contradiction flags and auto-resolution rate, and guard-3
faithfulness (`report_faithfulness.py`: mean faithfulness, the high-risk rate and its
trend, policy actions) and guard-2 consistency (`report_consistency.py`: scans, clusters
per 10k memories, merges, supersessions, flags and their trend). A section whose series
do not exist says the guard is not running rather than printing zeros.

Counts are `increase()` over the window, so they survive worker restarts (counter
resets) and aggregate over every worker Prometheus scrapes. Prior windows are the same
query with `offset`, evaluated at the same instant.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from groundwire.metrics.promql import by_label as _by
from groundwire.metrics.promql import scalar as _scalar
from groundwire.metrics.report_consistency import Guard2Report, build_guard2, format_guard2
from groundwire.metrics.report_faithfulness import Guard3Report, build_guard3, format_guard3
from groundwire.topics.redact import redact_url

PRIOR_WINDOWS = 4
MAX_WINDOW = timedelta(days=366)
_DURATION_RE = re.compile(r"^\s*(\d{1,6})\s*([smhdw])\s*$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}

# Guard-1 block-rate ranges (docs/spec.md §Metrics and alerts).
HEALTHY_LOW, HEALTHY_HIGH = 0.02, 0.04
ALERT_LOW, ALERT_HIGH = 0.005, 0.08


class PrometheusUnavailable(RuntimeError):
    """Prometheus could not be reached or did not answer a query successfully."""


def parse_duration(text: str) -> timedelta:
    """'7d', '24h', '90m', '2w' -> timedelta (bounded to a year)."""
    match = _DURATION_RE.match(text)
    if not match:
        raise ValueError(f"invalid duration {text!r}: use a number and one of s, m, h, d, w")
    value = timedelta(seconds=int(match.group(1)) * _UNIT_SECONDS[match.group(2)])
    if value <= timedelta(0) or value > MAX_WINDOW:
        raise ValueError(f"duration {text!r} must be between 1s and 366d")
    return value


QueryFn = Callable[[str, datetime], list[dict[str, Any]]]


class PrometheusClient:
    """Instant queries against /api/v1/query; every failure becomes PrometheusUnavailable."""

    def __init__(self, base_url: str, timeout_s: float = 10.0) -> None:
        if not re.match(r"^https?://[^\s/]+", base_url):
            shown = redact_url(base_url)
            raise ValueError(f"Prometheus URL must be http(s)://host[:port], got {shown!r}")
        self.base_url = base_url.rstrip("/")
        self.shown_url = redact_url(self.base_url)  # what errors name
        self._client = httpx.Client(timeout=timeout_s, follow_redirects=False)

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> PrometheusClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def query(self, promql: str, at: datetime) -> list[dict[str, Any]]:
        try:
            response = self._client.get(
                f"{self.base_url}/api/v1/query",
                params={"query": promql, "time": f"{at.timestamp():.3f}"},
            )
        except httpx.HTTPError as exc:
            raise PrometheusUnavailable(
                redact_url(
                    f"cannot reach Prometheus at {self.base_url}: {type(exc).__name__}: {exc}"
                )
            ) from exc
        try:
            body = response.json()
        except ValueError as exc:
            raise PrometheusUnavailable(
                f"Prometheus at {self.shown_url} answered HTTP {response.status_code} "
                "with a body that is not JSON (is this URL a Prometheus server?)"
            ) from exc
        if response.status_code != 200 or body.get("status") != "success":
            raise PrometheusUnavailable(
                f"Prometheus query failed (HTTP {response.status_code}): "
                f"{body.get('errorType', '')} {body.get('error', '')}".strip()
            )
        data = body.get("data", {})
        if data.get("resultType") != "vector":
            raise PrometheusUnavailable(f"expected a vector result, got {data.get('resultType')}")
        return list(data.get("result", []))


def _value(sample: dict[str, Any]) -> float:
    return float(sample["value"][1])


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or not denominator:
        return None
    return numerator / denominator


@dataclass
class WindowRate:
    """Guard-1 block rate over one window."""

    start: str
    end: str
    grounded: int
    blocked: int
    block_rate: float | None


@dataclass
class WeeklyReport:
    generated_at: str
    window: str
    start: str
    end: str
    candidates_processed: int
    routed_by_tier: dict[str, int]
    routed_by_reason: dict[str, int]
    grounding_verdicts: dict[str, int]
    guard1: WindowRate
    guard1_prior: list[WindowRate]
    guard1_trend: str
    guard1_assessment: str
    partial_rate: float | None
    unknown_rate: float | None
    dedup_results: dict[str, int]
    dlq_records: dict[str, int]
    reentry_rejections: dict[str, int]
    hedge_detections: dict[str, int]
    overall_risk: str
    components: dict[str, str] = field(default_factory=dict)
    guard2: Guard2Report | None = None  # store-time consistency, when it runs
    guard3: Guard3Report | None = None  # read-time faithfulness, when it runs

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _window_expr(metric_expr: str, window: timedelta, offset: timedelta, by: str = "") -> str:
    rng = f"[{int(window.total_seconds())}s]"
    off = f" offset {int(offset.total_seconds())}s" if offset else ""
    grouping = f" by ({by})" if by else ""
    return f"sum{grouping}(increase({metric_expr}{rng}{off}))"


_GROUNDED = 'groundwire_grounding_verdicts_total{verdict!="skipped"}'
_BLOCKED = "groundwire_hallucination_blocked_total"


def _guard1(query: QueryFn, at: datetime, window: timedelta, offset: timedelta) -> WindowRate:
    grounded = _scalar(query(_window_expr(_GROUNDED, window, offset), at))
    blocked = _scalar(query(_window_expr(_BLOCKED, window, offset), at))
    end = at - offset
    return WindowRate(
        start=(end - window).isoformat(),
        end=end.isoformat(),
        grounded=round(grounded or 0),
        blocked=round(blocked or 0),
        block_rate=_ratio(blocked, grounded),
    )


def trend(current: float | None, prior: list[float | None]) -> str:
    """rising / falling / flat against the mean of the prior windows that have data.

    A change of less than 20 % of the prior mean (or under 0.2 percentage points) is
    flat: week-to-week noise at the healthy 2-4 % rates is about that large.
    """
    history = [p for p in prior if p is not None]
    if current is None:
        return "no data"
    if not history:
        return "no history"
    mean = sum(history) / len(history)
    delta = current - mean
    if abs(delta) < 0.002 or (mean > 0 and abs(delta) / mean < 0.2):
        return "flat"
    return "rising" if delta > 0 else "falling"


def assess_block_rate(rate: float | None) -> str:
    if rate is None:
        return "no grounded candidates in the window"
    if rate < ALERT_LOW:
        return "below 0.5 %: verifier may be too permissive or the extractor changed"
    if rate < HEALTHY_LOW:
        return "below the healthy 2-4 % range"
    if rate <= HEALTHY_HIGH:
        return "healthy (2-4 %)"
    if rate <= ALERT_HIGH:
        return "above the healthy 2-4 % range"
    return "above 8 %: domain shift or extractor regression"


def overall_risk(rate: float | None) -> str:
    """The dashboard's "Overall hallucination risk" from the guard-1 block rate."""
    if rate is None:
        return "NO DATA"
    if rate < ALERT_LOW:
        return "CHECK VERIFIER"
    if rate < HEALTHY_HIGH:
        return "LOW"
    if rate <= ALERT_HIGH:
        return "MEDIUM"
    return "HIGH"


# Components that come later announce themselves by their series; until then the report
# says they are not running instead of printing zeros that look like data.
_COMPONENT_SERIES = {
    "guard2_consistency_scan": "groundwire_consistency_.*",
    "guard3_faithfulness": "groundwire_faithfulness_.*",
}


def build_report(query: QueryFn, window: timedelta, at: datetime | None = None) -> WeeklyReport:
    """Run the report's queries at instant `at` (default now) over `window`."""
    at = at or datetime.now(UTC)
    zero = timedelta(0)

    def by(metric: str, label: str) -> dict[str, int]:
        return _by(query(_window_expr(metric, window, zero, label), at), label)

    current = _guard1(query, at, window, zero)
    prior = [_guard1(query, at, window, window * k) for k in range(1, PRIOR_WINDOWS + 1)]
    verdicts = by("groundwire_grounding_verdicts_total", "verdict")
    grounded = current.grounded or None
    components = {}
    for name, pattern in _COMPONENT_SERIES.items():
        rows = query(f'count({{__name__=~"{pattern}"}})', at)
        components[name] = "running" if _scalar(rows) else "not running (no series)"
    routed_by_tier = by("groundwire_claims_routed_total", "tier")
    guard2 = None
    if components["guard2_consistency_scan"] == "running":
        guard2 = build_guard2(query, at, window, PRIOR_WINDOWS, trend)
    guard3 = None
    if components["guard3_faithfulness"] == "running":
        guard3 = build_guard3(query, at, window, PRIOR_WINDOWS, trend)
    return WeeklyReport(
        generated_at=at.isoformat(),
        window=_format_window(window),
        start=(at - window).isoformat(),
        end=at.isoformat(),
        candidates_processed=sum(routed_by_tier.values()),
        routed_by_tier=routed_by_tier,
        routed_by_reason=by("groundwire_claims_routed_total", "reason"),
        grounding_verdicts=verdicts,
        guard1=current,
        guard1_prior=prior,
        guard1_trend=trend(current.block_rate, [p.block_rate for p in prior]),
        guard1_assessment=assess_block_rate(current.block_rate),
        partial_rate=_ratio(verdicts.get("partial", 0), grounded),
        unknown_rate=_ratio(verdicts.get("unknown", 0), grounded),
        dedup_results=by("groundwire_dedup_results_total", "result"),
        dlq_records=by("groundwire_dlq_records_total", "reason"),
        reentry_rejections=by("groundwire_reentry_rejections_total", "reason"),
        hedge_detections=by("groundwire_hedge_detections_total", "category"),
        overall_risk=overall_risk(current.block_rate),
        components=components,
        guard2=guard2,
        guard3=guard3,
    )


def _format_window(window: timedelta) -> str:
    seconds = int(window.total_seconds())
    for unit in ("w", "d", "h", "m"):
        if seconds % _UNIT_SECONDS[unit] == 0:
            return f"{seconds // _UNIT_SECONDS[unit]}{unit}"
    return f"{seconds}s"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.2f}%"


def _counts(counts: dict[str, int], limit: int = 8) -> str:
    nonzero = [(k, v) for k, v in counts.items() if v]
    if not nonzero:
        return "none"
    shown = ", ".join(f"{k} {v:,}" for k, v in nonzero[:limit])
    rest = len(nonzero) - limit
    return shown + (f", +{rest} more" if rest > 0 else "")


def format_text(report: WeeklyReport) -> str:
    """The report as plain text for a terminal or an e-mail."""
    g1 = report.guard1
    lines = [
        f"groundwire hallucination risk report: last {report.window}",
        f"  window {report.start} .. {report.end}",
        "",
        f"Candidates processed:        {report.candidates_processed:,}",
        f"  by tier:                   {_counts(report.routed_by_tier)}",
        f"  top reasons:               {_counts(report.routed_by_reason, 5)}",
        "",
        "Guard 1: write-time grounding",
        f"  grounded candidates:       {g1.grounded:,}",
        f"  blocked (NOT_SUPPORTED):   {g1.blocked:,} ({_pct(g1.block_rate)})",
        f"  assessment:                {report.guard1_assessment}",
        f"  trend vs prior {PRIOR_WINDOWS} windows:  {report.guard1_trend}",
    ]
    for i, prior in enumerate(report.guard1_prior, start=1):
        lines.append(
            f"    -{i}: {_pct(prior.block_rate):>8} of {prior.grounded:,} grounded"
            f"  ({prior.start[:10]} .. {prior.end[:10]})"
        )
    lines += [
        f"  partial (penalised):       {_pct(report.partial_rate)}",
        f"  verifier UNKNOWN:          {_pct(report.unknown_rate)}",
        "",
        "Screening and pipeline",
        f"  hedge detections:          {_counts(report.hedge_detections)}",
        f"  re-entry rejections:       {_counts(report.reentry_rejections)}",
        f"  dedup results:             {_counts(report.dedup_results)}",
        f"  dead-lettered records:     {_counts(report.dlq_records)}",
        "",
        *format_guard2(
            report.guard2,
            report.components.get("guard2_consistency_scan", "?"),
            datetime.fromisoformat(report.generated_at),
        ),
        *format_guard3(report.guard3, report.components.get("guard3_faithfulness", "?")),
        "",
        f"Overall hallucination risk:  {report.overall_risk}",
    ]
    return "\n".join(lines) + "\n"
