"""Calibrating the learned verifier's score, and choosing how, on held-apart data.

The boosted trees give a log-odds `raw`; the model file maps it to P(supported) with a
monotone curve fitted on out-of-fold predictions. Session 15 round 2 found one curve for
every claim over-stating support where the lexical verdict had already refused the claim
(BEGIN's middle bin: the trees' raw score means less there, since the lexical rules have
already taken the supported claims out). So a curve may be fitted per lexical outcome
(passing: SUPPORTED or PARTIAL; not passing), and the form is chosen by cross-fitted log
loss over the in-domain groups, each group weighing the same:

* `isotonic` / `platt`: one curve for every claim;
* `isotonic-by-lexical` / `platt-by-lexical`: one curve per lexical outcome.

Every curve is stored as breakpoints read by `numpy.interp` (Platt's sigmoid sampled on a
fine grid), so run time is one interpolation per claim whichever form is chosen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = [
    "CANDIDATES",
    "Curve",
    "apply_calibration",
    "carry_bound",
    "choose_calibration",
    "expected_calibration_error",
    "fit_calibration",
    "log_loss",
]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
Curve = tuple[FloatArray, FloatArray]
CANDIDATES = ("isotonic", "platt", "isotonic-by-lexical", "platt-by-lexical")
# predictions are clipped to [EPS, 1 - EPS] when log loss is read, so a step of an
# isotonic curve at exactly 0 or 1 costs a bounded amount, as a Platt curve's tail does
EPS = 0.005


def _isotonic(raw: FloatArray, y: FloatArray, w: FloatArray) -> Curve:
    from sklearn.isotonic import IsotonicRegression

    iso = IsotonicRegression(out_of_bounds="clip", y_min=0.0, y_max=1.0)
    iso.fit(raw, y, sample_weight=w)
    return np.asarray(iso.X_thresholds_, float), np.asarray(iso.y_thresholds_, float)


def _platt(raw: FloatArray, y: FloatArray, w: FloatArray) -> Curve:
    """A logistic curve P = 1 / (1 + exp(-(a * raw + b))), fitted by weighted maximum
    likelihood (Newton steps), sampled on 129 points over the raw range seen."""
    a, b = 1.0, 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(a * raw + b)))
        g = np.array([np.sum(w * (p - y) * raw), np.sum(w * (p - y))])
        h = w * p * (1 - p)
        hess = np.array([[np.sum(h * raw * raw), np.sum(h * raw)], [np.sum(h * raw), np.sum(h)]])
        step = np.linalg.solve(hess + 1e-9 * np.eye(2), g)
        a, b = a - step[0], b - step[1]
        if np.abs(step).max() < 1e-9:
            break
    lo, hi = float(raw.min()), float(raw.max())
    xs = np.linspace(lo, hi if hi > lo else lo + 1.0, 129)
    return xs, 1.0 / (1.0 + np.exp(-(a * xs + b)))


def _curve(kind: str, raw: FloatArray, y: FloatArray, w: FloatArray) -> Curve:
    return _platt(raw, y, w) if kind.startswith("platt") else _isotonic(raw, y, w)


def fit_calibration(
    kind: str, raw: FloatArray, y: FloatArray, w: FloatArray, lex_pass: BoolArray
) -> dict[str, Curve]:
    """The curves of `kind`: {"all": curve}, or {"pass": ..., "fail": ...} per lexical
    outcome (a side with fewer than 20 rows falls back to the curve on every row)."""
    if kind not in CANDIDATES:
        raise ValueError(f"unknown calibration {kind!r}; one of {CANDIDATES}")
    whole = _curve(kind, raw, y, w)
    if not kind.endswith("by-lexical"):
        return {"all": whole}
    out: dict[str, Curve] = {}
    for side, mask in (("pass", lex_pass), ("fail", ~lex_pass)):
        ok = mask.sum() >= 20 and len(set(y[mask].tolist())) == 2
        out[side] = _curve(kind, raw[mask], y[mask], w[mask]) if ok else whole
    return out


def apply_calibration(
    curves: dict[str, Curve], raw: FloatArray, lex_pass: BoolArray | None
) -> FloatArray:
    """P(supported) for each raw score; per lexical outcome when the curves are split."""
    if "all" in curves:
        x, y = curves["all"]
        out: FloatArray = np.interp(raw, x, y)
        return out
    if lex_pass is None:
        raise ValueError("a calibration split by lexical outcome needs the lexical verdict")
    px, py = curves["pass"]
    fx, fy = curves["fail"]
    out = np.where(lex_pass, np.interp(raw, px, py), np.interp(raw, fx, fy))
    return out


def log_loss(p: FloatArray, y: FloatArray, w: FloatArray) -> float:
    q = np.clip(p, EPS, 1 - EPS)
    return float(-np.sum(w * (y * np.log(q) + (1 - y) * np.log(1 - q))) / np.sum(w))


def expected_calibration_error(p: FloatArray, y: FloatArray, bins: int = 10) -> float:
    """Σ over equal-width bins of (share of claims in the bin) × |mean predicted − share
    supported|: how far, on average over claims, the score is from the frequency it
    claims."""
    p, y = np.asarray(p, float), np.asarray(y, float)
    if not len(p):
        return float("nan")
    idx = np.clip((p * bins).astype(int), 0, bins - 1)
    total = 0.0
    for b in range(bins):
        k = idx == b
        if k.any():
            total += k.mean() * abs(p[k].mean() - y[k].mean())
    return float(total)


@dataclass(frozen=True, slots=True)
class Choice:
    kind: str
    # per candidate: mean over groups of the cross-fitted log loss, and of the ECE
    log_loss: dict[str, float]
    ece: dict[str, dict[str, float]]


def choose_calibration(
    raw: FloatArray,
    y: FloatArray,
    w: FloatArray,
    lex_pass: BoolArray,
    folds: npt.NDArray[np.int64],
    groups: Sequence[str],
    candidates: Sequence[str] = CANDIDATES,
) -> Choice:
    """Cross-fit each candidate on the out-of-fold raw scores (its curves fitted on the
    other folds' rows, read on the fold's), and pick the lowest mean per-group log loss;
    among equal losses (1e-4) the earlier candidate, the simpler one."""
    g = np.asarray(groups)
    names = sorted(set(groups))
    losses: dict[str, float] = {}
    eces: dict[str, dict[str, float]] = {}
    for kind in candidates:
        p = np.zeros(len(raw))
        for k in np.unique(folds):
            tr, te = folds != k, folds == k
            curves = fit_calibration(kind, raw[tr], y[tr], w[tr], lex_pass[tr])
            p[te] = apply_calibration(curves, raw[te], lex_pass[te])
        losses[kind] = float(np.mean([log_loss(p[g == n], y[g == n], w[g == n]) for n in names]))
        eces[kind] = {n: expected_calibration_error(p[g == n], y[g == n]) for n in names}
    best = candidates[0]
    for kind in candidates[1:]:
        if losses[kind] < losses[best] - 1e-4:
            best = kind
    return Choice(best, losses, eces)


def carry_bound(bound: float, old: Curve, new: Curve) -> float:
    """The probability on the `new` curve at the raw score where the `old` curve reaches
    `bound`: a decision "score < bound" reads the same claims as before on the new scale,
    when the new curve rises strictly (Platt's does; an isotonic curve's flat steps can
    merge claims the old bound told apart). Below the old curve's lowest value: 0."""
    ox, oy = np.asarray(old[0], float), np.asarray(old[1], float)
    above = np.nonzero(oy >= bound)[0]
    if not len(above) or above[0] == 0:
        return 0.0 if len(above) else 1.0
    j = int(above[0])
    cut = ox[j - 1] + (bound - oy[j - 1]) / (oy[j] - oy[j - 1]) * (ox[j] - ox[j - 1])
    return float(np.interp(cut, new[0], new[1]))
