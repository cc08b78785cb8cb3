"""Small PromQL helpers the weekly report's sections share: one query shape for "how much
in this window", and the two ways a vector answer is read (one value, or one per label)."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any


def increase(metric: str, window: timedelta, offset: timedelta, by: str = "") -> str:
    """`sum [by (label)] (increase(metric[window] offset …))`, windows in whole seconds."""
    rng = f"[{int(window.total_seconds())}s]"
    off = f" offset {int(offset.total_seconds())}s" if offset else ""
    grouping = f" by ({by})" if by else ""
    return f"sum{grouping}(increase({metric}{rng}{off}))"


def scalar(rows: list[dict[str, Any]]) -> float | None:
    """The value of a single-sample vector; None for no data or NaN."""
    if not rows:
        return None
    value = float(rows[0]["value"][1])
    return None if math.isnan(value) else value


def by_label(rows: list[dict[str, Any]], label: str) -> dict[str, int]:
    """One rounded value per label value, largest first (NaN samples left out)."""
    out: dict[str, int] = {}
    for row in rows:
        value = float(row["value"][1])
        if not math.isnan(value):
            out[row["metric"].get(label, "")] = round(value)
    return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))
