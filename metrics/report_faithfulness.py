"""The weekly report's guard-3 section (read-time faithfulness; docs/spec.md §Read-time
faithfulness): answers scored, mean faithfulness, the high-risk rate with its trend
against the prior windows, what the policies did, unsupported claims and phantom
citations. Queried only when guard 3's series exist (it is opt-in); otherwise the report
says it is not running.

Kept beside `report.py` so the report's module stays about its frame; the queries use
the same `increase()` windows and `offset`s, evaluated at the same instant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from groundwire.metrics.promql import by_label as _by
from groundwire.metrics.promql import increase as _increase
from groundwire.metrics.promql import scalar as _scalar

QueryFn = Callable[[str, datetime], list[dict[str, Any]]]

# docs/spec.md: healthy below 1 % for general chat; the alert above 5 %.
HEALTHY_HIGH_RISK = 0.01
ALERT_HIGH_RISK = 0.05

_SCORES = "groundwire_faithfulness_scores_total"


@dataclass
class Guard3Window:
    start: str
    end: str
    answers: int
    high_risk: int
    high_risk_rate: float | None


@dataclass
class Guard3Report:
    window: Guard3Window
    prior: list[Guard3Window] = field(default_factory=list)
    trend: str = "no data"
    assessment: str = ""
    mean_faithfulness: float | None = None
    by_risk: dict[str, int] = field(default_factory=dict)
    actions: dict[str, int] = field(default_factory=dict)
    unsupported_claims: dict[str, int] = field(default_factory=dict)
    uncited_claims: dict[str, int] = field(default_factory=dict)
    phantom_citations: int = 0
    degraded: int = 0


def _window(query: QueryFn, at: datetime, window: timedelta, offset: timedelta) -> Guard3Window:
    answers = _scalar(query(_increase(_SCORES, window, offset), at)) or 0.0
    high = _scalar(query(_increase(f'{_SCORES}{{risk="high"}}', window, offset), at)) or 0.0
    end = at - offset
    return Guard3Window(
        start=(end - window).isoformat(),
        end=end.isoformat(),
        answers=round(answers),
        high_risk=round(high),
        high_risk_rate=high / answers if answers else None,
    )


def assess_high_risk(rate: float | None) -> str:
    if rate is None:
        return "no answers scored in the window"
    if rate < HEALTHY_HIGH_RISK:
        return "healthy (below 1 %)"
    if rate <= ALERT_HIGH_RISK:
        return "above the healthy 1 % (high-stakes deployments aim below 0.1 %)"
    return "above 5 %: retrieval coverage or the prompt invites extrapolation"


def build_guard3(
    query: QueryFn,
    at: datetime,
    window: timedelta,
    prior_windows: int,
    trend: Callable[[float | None, list[float | None]], str],
) -> Guard3Report:
    zero = timedelta(0)

    def by(metric: str, label: str) -> dict[str, int]:
        return _by(query(_increase(metric, window, zero, label), at), label)

    current = _window(query, at, window, zero)
    prior = [_window(query, at, window, window * k) for k in range(1, prior_windows + 1)]
    total = _scalar(query(_increase("groundwire_faithfulness_score_sum", window, zero), at))
    count = _scalar(query(_increase("groundwire_faithfulness_score_count", window, zero), at))
    return Guard3Report(
        window=current,
        prior=prior,
        trend=trend(current.high_risk_rate, [p.high_risk_rate for p in prior]),
        assessment=assess_high_risk(current.high_risk_rate),
        mean_faithfulness=(total / count) if total is not None and count else None,
        by_risk=by(_SCORES, "risk"),
        actions=by("groundwire_faithfulness_policy_applied_total", "action"),
        unsupported_claims=by("groundwire_faithfulness_unsupported_claims_total", "verdict"),
        uncited_claims=by("groundwire_faithfulness_uncited_claims_total", "finding"),
        phantom_citations=round(
            _scalar(
                query(
                    _increase("groundwire_faithfulness_phantom_citations_total", window, zero), at
                )
            )
            or 0
        ),
        degraded=round(
            _scalar(query(_increase("groundwire_faithfulness_degraded_total", window, zero), at))
            or 0
        ),
    )


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.2f}%"


def _counts(counts: dict[str, int]) -> str:
    nonzero = [f"{k} {v:,}" for k, v in counts.items() if v]
    return ", ".join(nonzero) if nonzero else "none"


def format_guard3(report: Guard3Report | None, status: str) -> list[str]:
    """The section's lines; a one-liner when guard 3 is not running."""
    if report is None:
        return ["Guard 3: faithfulness:       " + status]
    w = report.window
    mean = "n/a" if report.mean_faithfulness is None else f"{report.mean_faithfulness:.2f}"
    lines = [
        "Guard 3: read-time faithfulness",
        f"  answers scored:            {w.answers:,}",
        f"  mean faithfulness:         {mean}",
        f"  high-risk answers:         {w.high_risk:,} ({_pct(w.high_risk_rate)})",
        f"  assessment:                {report.assessment}",
        f"  trend vs prior {len(report.prior)} windows:  {report.trend}",
    ]
    for i, prior in enumerate(report.prior, start=1):
        lines.append(
            f"    -{i}: {_pct(prior.high_risk_rate):>8} of {prior.answers:,} answers"
            f"  ({prior.start[:10]} .. {prior.end[:10]})"
        )
    lines += [
        f"  by risk:                   {_counts(report.by_risk)}",
        f"  policy actions:            {_counts(report.actions)}",
        f"  unsupported claims:        {_counts(report.unsupported_claims)}",
        f"  uncited claims:            {_counts(report.uncited_claims)}",
        f"  phantom citations:         {report.phantom_citations:,}",
        f"  scored with the fallback:  {report.degraded:,}",
    ]
    return lines
