"""`best_balanced_accuracy` (scripts/plot_grounding.py): the ceiling of a score on one
dataset, which docs/grounding.md quotes to tell a threshold problem from a score problem."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

_SCRIPT = Path(__file__).resolve().parents[4] / "scripts" / "plot_grounding.py"
_spec = importlib.util.spec_from_file_location("plot_grounding", _SCRIPT)
assert _spec is not None and _spec.loader is not None
plot_grounding = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(plot_grounding)
best = plot_grounding.best_balanced_accuracy


def brute_force(y: np.ndarray, s: np.ndarray) -> float:
    out = 0.5
    for t in np.unique(s):
        p = s >= t
        out = max(out, (p[y].mean() + (~p[~y]).mean()) / 2)
    return float(out)


def test_a_separating_score_reaches_one_and_a_constant_one_half() -> None:
    y = np.array([True, True, False, False])
    assert best(y, np.array([0.9, 0.8, 0.2, 0.1])) == 1.0
    assert best(y, np.full(4, 0.5)) == 0.5
    # reversed: predicting "supported" for everything is the best a threshold can do
    assert best(y, np.array([0.1, 0.2, 0.8, 0.9])) == 0.5


def test_ties_are_not_split_by_a_threshold() -> None:
    # one threshold cannot put the supported 0.5 above and the unsupported 0.5 below
    y = np.array([True, False, True, False])
    s = np.array([0.5, 0.5, 0.9, 0.1])
    assert best(y, s) == pytest.approx(brute_force(y, s)) == 0.75


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_trying_every_threshold(seed: int) -> None:
    rng = np.random.default_rng(seed)
    y = rng.random(200) < 0.4
    s = np.round(rng.random(200) + 0.3 * y, 2)  # rounded: many ties
    assert best(y, s) == pytest.approx(brute_force(y, s))
