"""Speculation and hedging in a claim's own wording (personal belief, admitted
uncertainty, suggestions, technical hedges, approximations)."""

from __future__ import annotations

from groundwire.guards.hedge.detector import (
    ACTION_OF,
    HedgeAction,
    HedgeCategory,
    HedgeDetector,
    HedgeHit,
    analyze,
)

__all__ = ["ACTION_OF", "HedgeAction", "HedgeCategory", "HedgeDetector", "HedgeHit", "analyze"]
