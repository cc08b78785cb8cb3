"""The weekly report's guard-2 section (store-time consistency; docs/spec.md §Store-time
consistency): the scans that ran, memories scanned, clusters found per 10,000 memories
with the specification's reading of it, what the scans did (merged, superseded,
flagged), the auto-resolution rate, contradiction flags with their trend against the
prior windows, and write-time supersessions.

Kept beside `report.py` like the guard-3 section; the queries are `increase()` over the
same windows and `offset`s, evaluated at the same instant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from groundwire.metrics.promql import by_label as _by
from groundwire.metrics.promql import increase as _increase
from groundwire.metrics.promql import scalar as _scalar

QueryFn = Callable[[str, datetime], list[dict[str, Any]]]
TrendFn = Callable[[float | None, list[float | None]], str]

# docs/spec.md §Store-time consistency: 1-5 clusters per 10k memories per scan is
# healthy; above 20 a threshold or an extractor change; below 0.5 a threshold too high.
HEALTHY_LOW, HEALTHY_HIGH = 1.0, 5.0
ALERT_LOW, ALERT_HIGH = 0.5, 20.0

_ACTIONS = "groundwire_consistency_actions_total"


@dataclass
class Guard2Window:
    start: str
    end: str
    flags: int
    clusters: int
    memories_scanned: int


@dataclass
class Guard2Report:
    window: Guard2Window
    prior: list[Guard2Window] = field(default_factory=list)
    flags_trend: str = "no data"
    scans: dict[str, int] = field(default_factory=dict)  # complete / partial
    last_scan: str | None = None  # ISO time of the last reported scan
    clusters_per_10k: float | None = None
    assessment: str = ""
    actions: dict[str, int] = field(default_factory=dict)
    verdicts: dict[str, int] = field(default_factory=dict)
    auto_resolution_rate: float | None = None  # (merge + supersede) / all actions
    write_supersessions: int = 0
    mean_scan_seconds: float | None = None


def clusters_per_10k(clusters: float | None, memories: float | None) -> float | None:
    if clusters is None or not memories:
        return None
    return clusters / memories * 10_000


def assess_clusters(per_10k: float | None) -> str:
    """The specification's reading of clusters per 10k memories per scan."""
    if per_10k is None:
        return "no memories scanned in the window"
    if per_10k < ALERT_LOW:
        return "below 0.5: the similarity threshold may be too high"
    if per_10k < HEALTHY_LOW:
        return "below the healthy 1-5 range"
    if per_10k <= HEALTHY_HIGH:
        return "healthy (1-5)"
    if per_10k <= ALERT_HIGH:
        return "above the healthy 1-5 range"
    return "above 20: a threshold misconfiguration or a batch of conflicting extractions"


def _window(query: QueryFn, at: datetime, window: timedelta, offset: timedelta) -> Guard2Window:
    def n(metric: str) -> int:
        return round(_scalar(query(_increase(metric, window, offset), at)) or 0.0)

    end = at - offset
    return Guard2Window(
        start=(end - window).isoformat(),
        end=end.isoformat(),
        flags=n(f'{_ACTIONS}{{action="flag"}}'),
        clusters=n("groundwire_consistency_clusters_found_total"),
        memories_scanned=n("groundwire_consistency_memories_scanned_total"),
    )


def build_guard2(
    query: QueryFn, at: datetime, window: timedelta, prior_windows: int, trend: TrendFn
) -> Guard2Report:
    zero = timedelta(0)
    current = _window(query, at, window, zero)
    prior = [_window(query, at, window, window * k) for k in range(1, prior_windows + 1)]
    actions = _by(query(_increase(_ACTIONS, window, zero, "action"), at), "action")
    total = sum(actions.values())
    resolved = actions.get("merge", 0) + actions.get("supersede", 0)
    duration_sum = _scalar(
        query(_increase("groundwire_consistency_scan_duration_seconds_sum", window, zero), at)
    )
    duration_count = _scalar(
        query(_increase("groundwire_consistency_scan_duration_seconds_count", window, zero), at)
    )
    last = _scalar(query("max(groundwire_consistency_last_scan_timestamp_seconds)", at))
    per_10k = clusters_per_10k(current.clusters, current.memories_scanned)
    return Guard2Report(
        window=current,
        prior=prior,
        flags_trend=trend(float(current.flags), [float(p.flags) for p in prior]),
        scans=_by(
            query(_increase("groundwire_consistency_scans_total", window, zero, "outcome"), at),
            "outcome",
        ),
        last_scan=datetime.fromtimestamp(last, UTC).isoformat() if last else None,
        clusters_per_10k=per_10k,
        assessment=assess_clusters(per_10k),
        actions=actions,
        verdicts=_by(
            query(_increase("groundwire_consistency_verdicts_total", window, zero, "verdict"), at),
            "verdict",
        ),
        auto_resolution_rate=resolved / total if total else None,
        write_supersessions=round(
            _scalar(
                query(
                    _increase("groundwire_consistency_write_supersessions_total", window, zero),
                    at,
                )
            )
            or 0.0
        ),
        mean_scan_seconds=duration_sum / duration_count
        if duration_sum is not None and duration_count
        else None,
    )


def _counts(counts: dict[str, int]) -> str:
    shown = ", ".join(f"{k} {v:,}" for k, v in counts.items() if v)
    return shown or "none"


def format_guard2(
    report: Guard2Report | None, status: str, at: datetime | None = None
) -> list[str]:
    """The section's lines (the heading says "not running" when there are no series)."""
    if report is None:
        return ["Guard 2: consistency scan:   " + status]
    w = report.window
    ago = "never"
    if report.last_scan is not None:
        hours = (
            (at or datetime.now(UTC)) - datetime.fromisoformat(report.last_scan)
        ).total_seconds() / 3600
        ago = f"{hours:.0f} hours ago ({report.last_scan[:16]})"
    per_10k = "n/a" if report.clusters_per_10k is None else f"{report.clusters_per_10k:.1f}"
    resolution = (
        "n/a"
        if report.auto_resolution_rate is None
        else f"{report.auto_resolution_rate * 100:.0f}%"
    )
    mean = "n/a" if report.mean_scan_seconds is None else f"{report.mean_scan_seconds:.1f} s"
    lines = [
        "Guard 2: consistency scan",
        f"  last run:                  {ago}",
        f"  scans in the window:       {_counts(report.scans)}",
        f"  memories scanned:          {w.memories_scanned:,}",
        f"  clusters found:            {w.clusters:,} ({per_10k} per 10k memories)",
        f"  assessment:                {report.assessment}",
        f"  auto-merged (equivalent):  {report.actions.get('merge', 0):,}",
        f"  auto-superseded (temporal): {report.actions.get('supersede', 0):,}",
        f"  flagged (contradiction):   {w.flags:,}",
        f"  auto-resolution rate:      {resolution}",
        f"  flags trend vs prior {len(report.prior)}:    {report.flags_trend}",
        f"  superseded at write time:  {report.write_supersessions:,}",
        f"  mean scan duration:        {mean}",
    ]
    return lines
