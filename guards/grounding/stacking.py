"""Comparing stacking rules of the learned verifier out of fold (session 16).

A stacked model (`LearnedVerifier`, `overrule_below`) lets the lexical verdict stand
unless a rule over the learned score says otherwise. `training.choose_overrule` picks the
packaged rule's one bound on the out-of-fold scores and reports the accuracy at that bound:
an in-sample figure for the bound, which favours rules with more settings. Here each
candidate rule's settings are chosen on four folds' held-apart scores (with a calibration
fitted on those folds) and read on the fifth, so rules with one and two settings, and the
lexical verdict alone, are compared on the same footing: balanced accuracy per in-domain
group, averaged with each group weighing the same (`groundwire eval`'s target).

Read from the held-apart scores `train_grounding.py --lexical-view --stack` leaves in its
cache (`oof-raw.npz`); `scripts/compare_stacking.py` prints the table. Nothing here is read
at run time.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from groundwire.guards.grounding.calibration import apply_calibration, fit_calibration

__all__ = ["RULES", "Outcome", "Rows", "Rule", "compare", "family_mean", "group_mean"]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

BOUNDS = tuple(round(k * 0.025, 4) for k in range(21))  # 0 .. 0.5, as choose_overrule
LEX_SCORES = (*(round(0.3 + k * 0.05, 3) for k in range(15)), 9.0)  # 9: no condition


@dataclass(frozen=True, slots=True)
class Rows:
    """The held-apart rows: raw tree score, label, calibration weight, the lexical
    verdict (supported / partial; neither is NOT_SUPPORTED) and score, fold and group."""

    raw: FloatArray
    y: BoolArray
    weight: FloatArray
    lex_supported: BoolArray
    lex_partial: BoolArray
    lex_score: FloatArray
    fold: npt.NDArray[np.int64]
    group: npt.NDArray[np.str_]
    in_domain: BoolArray

    @property
    def lex_pass(self) -> BoolArray:
        out: BoolArray = self.lex_supported | self.lex_partial
        return out


Predict = Callable[[Rows, FloatArray, tuple[float, ...]], BoolArray]
Criterion = Callable[[dict[str, float]], float]


def _ba(y: BoolArray, pred: BoolArray) -> float:
    recalls = [float(np.mean(pred[y == c] == c)) for c in (True, False) if (y == c).any()]
    return float(np.mean(recalls)) if recalls else float("nan")


def group_mean(per_group: dict[str, float]) -> float:
    """Each in-domain group weighs the same (the criterion of `choose_overrule`)."""
    return float(np.mean(list(per_group.values())))


def family_mean(per_group: dict[str, float]) -> float:
    """Each family (BEGIN, FaithDial, SummEdits: the group name's first part) weighs the
    same, its groups the same within it."""
    fams: dict[str, list[float]] = {}
    for g, v in per_group.items():
        fams.setdefault(g.split("-")[0], []).append(v)
    return float(np.mean([np.mean(v) for v in fams.values()]))


@dataclass(frozen=True, slots=True)
class Rule:
    """Which claims pass (predicted supported) given the calibrated learned score and
    the rule's settings; `grid` in the order ties are broken (the first is kept: the
    fewest overrules)."""

    predict: Predict
    grid: tuple[tuple[float, ...], ...]
    criterion: Criterion = group_mean


def _single(r: Rows, p: FloatArray, t: tuple[float, ...]) -> BoolArray:
    out: BoolArray = r.lex_pass & (p >= t[0])
    return out


def _per_outcome(r: Rows, p: FloatArray, t: tuple[float, ...]) -> BoolArray:
    out: BoolArray = (r.lex_supported & (p >= t[0])) | (
        r.lex_partial & ~r.lex_supported & (p >= t[1])
    )
    return out


def _lexical_low_too(r: Rows, p: FloatArray, t: tuple[float, ...]) -> BoolArray:
    out: BoolArray = r.lex_pass & ~((p < t[0]) & (r.lex_score < t[1]))
    return out


RULES: dict[str, Rule] = {
    "single bound (shipped)": Rule(_single, tuple((t,) for t in BOUNDS)),
    "single bound, families equal": Rule(_single, tuple((t,) for t in BOUNDS), family_mean),
    "bound per lexical outcome": Rule(_per_outcome, tuple(itertools.product(BOUNDS, BOUNDS))),
    "bound and lexical score low": Rule(
        _lexical_low_too, tuple(itertools.product(BOUNDS, LEX_SCORES))
    ),
}


@dataclass(frozen=True, slots=True)
class Outcome:
    nested: dict[str, float]  # per group: settings chosen on the other folds
    nested_mean: float
    in_sample: dict[str, float]  # per group: settings chosen on every fold (as training)
    in_sample_mean: float
    settings: tuple[float, ...]  # chosen on every fold
    per_fold: tuple[tuple[float, ...], ...]  # chosen without each fold


def _per_group(r: Rows, pred: BoolArray, groups: Sequence[str]) -> dict[str, float]:
    return {
        g: _ba(r.y[r.in_domain & (r.group == g)], pred[r.in_domain & (r.group == g)])
        for g in groups
    }


def _calibrated(r: Rows, fit_rows: BoolArray) -> FloatArray:
    m = fit_rows & r.in_domain
    curves = fit_calibration("platt", r.raw[m], r.y[m].astype(float), r.weight[m], r.lex_pass[m])
    return apply_calibration(curves, r.raw, r.lex_pass)


def _choose(
    rule: Rule, r: Rows, p: FloatArray, rows: BoolArray, groups: Sequence[str]
) -> tuple[float, ...]:
    best: tuple[float, tuple[float, ...]] | None = None
    for t in rule.grid:
        pred = rule.predict(r, p, t)
        per = {g: _ba(r.y[rows & (r.group == g)], pred[rows & (r.group == g)]) for g in groups}
        v = rule.criterion(per)
        if best is None or v > best[0] + 1e-12:
            best = (v, t)
    assert best is not None
    return best[1]


def compare(r: Rows, rules: dict[str, Rule] | None = None) -> dict[str, Outcome]:
    """Every rule's nested and in-sample balanced accuracy per in-domain group, and the
    lexical verdict alone ("lexical", nothing overruled) for reference."""
    rules = RULES if rules is None else rules
    groups = sorted(set(r.group[r.in_domain].tolist()))
    folds = sorted(set(r.fold.tolist()))
    lex = _per_group(r, r.lex_pass, groups)
    out = {"lexical": Outcome(lex, group_mean(lex), lex, group_mean(lex), (), ())}
    p_all = _calibrated(r, np.ones(len(r.y), dtype=bool))
    for name, rule in rules.items():
        pred = np.zeros(len(r.y), dtype=bool)
        chosen = []
        for k in folds:
            fit_rows = r.fold != k
            p = _calibrated(r, fit_rows)
            t = _choose(rule, r, p, fit_rows & r.in_domain, groups)
            chosen.append(t)
            pred[r.fold == k] = rule.predict(r, p, t)[r.fold == k]
        nested = _per_group(r, pred, groups)
        t_all = _choose(rule, r, p_all, r.in_domain, groups)
        inside = _per_group(r, rule.predict(r, p_all, t_all), groups)
        out[name] = Outcome(
            nested, group_mean(nested), inside, group_mean(inside), t_all, tuple(chosen)
        )
    return out
