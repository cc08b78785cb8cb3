"""The learned verifier's model: boosted trees and a calibration curve, as plain arrays.

The model file (`data/learned.json`, written by `groundwire.guards.grounding.training`)
holds, for each of T regression trees of depth at most D, its nodes as flat arrays
(feature index, threshold, left child, right child, leaf value), padded so that every
tree has the same node count and a leaf points to itself. Scoring a batch is D rounds of
array indexing over (claims x trees) in numpy, no training library at run time:

    raw   = base + sum over trees of value[leaf reached by x]
    score = interp(raw, calibration.x, calibration.y)     # P(supported)

The calibration curve is monotone (isotonic steps, or Platt's sigmoid sampled finely),
fitted on held-apart predictions (out of fold), stored as its breakpoints;
`numpy.interp` reads it. A file may hold one curve per lexical outcome instead
(`calibration.by_lexical`: "pass" where the lexical view's verdict is SUPPORTED or
PARTIAL, "fail" otherwise; session 15 round 2,
`grounding.calibration`): the row's own `lex_supported` / `lex_partial` features pick
it. The file also records the thresholds chosen on held-apart data and what the model
was trained on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["FORMAT", "ModelError", "TreeModel", "load_model", "packaged_model_path"]

FORMAT = "groundwire-trees/1"
# the lexical view's features whose value > 0 means the lexical verdict lets the claim
# pass (SUPPORTED, PARTIAL): they pick the calibration curve of a file split by them
LEXICAL_PASS = ("lex_supported", "lex_partial")
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class ModelError(ValueError):
    """The model file is missing, malformed or made for other features."""


@dataclass(frozen=True, slots=True)
class TreeModel:
    features: tuple[str, ...]
    base: float
    depth: int
    feature: IntArray  # (T, M)
    threshold: FloatArray  # (T, M); +inf at leaves, so a leaf always goes "left" to itself
    left: IntArray  # (T, M)
    right: IntArray  # (T, M)
    value: FloatArray  # (T, M), learning rate folded in
    cal_x: FloatArray
    cal_y: FloatArray
    partial_threshold: float
    supported_threshold: float
    meta: dict[str, Any]
    # stacked on the lexical verdict (session 15): the lexical verdict stands unless the
    # learned score is under this, then NOT_SUPPORTED; None: the learned score decides
    overrule_below: float | None = None
    # one curve per lexical outcome ("pass", "fail"), read from the row's lexical view;
    # None: `cal_x` / `cal_y` for every row
    cal_by_lexical: dict[str, tuple[FloatArray, FloatArray]] | None = None
    # (positions of the complete tree of depth `depth`, trees): the flat node index at each
    # position, heap order (`_paths`); derived from `left` and `right`
    paths: IntArray = field(init=False, repr=False, compare=False)

    @property
    def trees(self) -> int:
        return int(self.feature.shape[0])

    def __post_init__(self) -> None:
        object.__setattr__(self, "paths", _paths(self.left, self.right, self.depth))

    def raw(self, x: FloatArray) -> FloatArray:
        """Sum of tree outputs (log-odds) for each row of `x` (claims x features).

        Every tree is read as the complete tree of its depth (`paths`: the node at each
        position, a leaf standing in for the positions under it, as a leaf "goes" to
        itself): each internal position is one column gather and one comparison over
        (claims x trees), and the leaves' values are picked bottom-up with `np.where`.
        That is the value of the leaf each claim reaches, as following the child pointers
        round by round gives it, without gathering node indices per claim and tree
        (about a third of the time per claim); the sum is taken over the same (claims x
        trees) array in the same order, so the figures are the same to the bit."""
        x = np.asarray(x, dtype=np.float64)
        if x.ndim != 2 or x.shape[1] != len(self.features):
            raise ModelError(f"expected (n, {len(self.features)}) features, got {x.shape}")
        feature, threshold = self.feature.ravel(), self.threshold.ravel()
        value = self.value.ravel()
        paths = self.paths
        inner = (1 << self.depth) - 1  # positions 0 .. inner-1 split, the rest are leaves
        # the values reached at each position, filled bottom-up from the leaves' values;
        # the children of position k are 2k+1 and 2k+2 (heap order)
        picked: dict[int, FloatArray] = {k: value[paths[k]] for k in range(inner, len(paths))}
        for k in range(inner - 1, -1, -1):
            at = paths[k]
            go_left = x[:, feature[at]] <= threshold[at]
            picked[k] = np.where(go_left, picked.pop(2 * k + 1), picked.pop(2 * k + 2))
        reached = picked[0]
        if reached.ndim == 1:  # depth 0: one leaf per tree, the same for every claim
            reached = np.tile(reached, (x.shape[0], 1))
        # the column gathers leave (claims x trees) in column order; each claim's row
        # must be summed as one contiguous run, as before, for the same rounding
        reached = np.ascontiguousarray(reached)
        out: FloatArray = self.base + reached.sum(axis=1)
        return out

    def calibrate(self, raw: FloatArray, x: FloatArray | None = None) -> FloatArray:
        """P(supported) from the raw log-odds; with curves per lexical outcome the rows
        `x` the scores came from say which curve each row reads."""
        if self.cal_by_lexical is None or x is None:
            out: FloatArray = np.interp(raw, self.cal_x, self.cal_y)
            return out
        x = np.asarray(x, dtype=np.float64)
        cols = [self.features.index(n) for n in LEXICAL_PASS]
        passing = (x[:, cols] > 0).any(axis=1)
        (px, py), (fx, fy) = self.cal_by_lexical["pass"], self.cal_by_lexical["fail"]
        out = np.where(passing, np.interp(raw, px, py), np.interp(raw, fx, fy))
        return out

    def predict(self, x: FloatArray) -> FloatArray:
        """Calibrated P(supported) for each row of `x`."""
        return self.calibrate(self.raw(x), x)


def _paths(left: IntArray, right: IntArray, depth: int) -> IntArray:
    """The flat node index (tree * nodes + node) at each position of the complete binary
    tree of `depth`, heap order (root 0; the children of k are 2k+1 and 2k+2), per tree.
    A leaf's children are the leaf itself (it points to itself), so every position under
    a leaf holds that leaf."""
    trees, width = left.shape
    start = np.arange(trees, dtype=np.int64) * width
    lefts, rights = left.ravel(), right.ravel()
    out = [start]
    for k in range((1 << depth) - 1):
        at = out[k]
        out.append(start + lefts[at])
        out.append(start + rights[at])
    return np.stack(out) if trees else np.zeros((len(out), 0), dtype=np.int64)


def packaged_model_path(name: str = "learned.json") -> Path:
    return Path(str(resources.files("groundwire.guards.grounding").joinpath(f"data/{name}")))


def _array(d: dict[str, Any], key: str, dtype: type) -> npt.NDArray[Any]:
    try:
        return np.asarray(d[key], dtype=dtype)
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"model field {key!r} is missing or malformed") from exc


def load_model(
    path: Path,
    features: tuple[str, ...] | None = None,
    any_of: tuple[tuple[str, ...], ...] = (),
) -> TreeModel:
    """Read and check a model file; `features`, when given, must match its feature names,
    and so must one of `any_of` when that is given (the verifier reads models fitted with
    or without the lexical verifier's judgement)."""
    try:
        doc = json.loads(Path(path).read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"cannot read grounding model {path}: {exc}") from exc
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ModelError(f"{path} is not a {FORMAT} model file")
    names = tuple(doc.get("features", ()))
    if (features is not None and names != features) or (any_of and names not in any_of):
        raise ModelError(
            f"{path} was fitted on other features ({len(names)} vs "
            f"{' or '.join(str(len(f)) for f in (features, *any_of) if f)}): refit it"
        )
    trees = doc.get("trees", {})
    feature = _array(trees, "feature", np.int64)
    threshold = _array(trees, "threshold", np.float64)
    left = _array(trees, "left", np.int64)
    right = _array(trees, "right", np.int64)
    value = _array(trees, "value", np.float64)
    shape = feature.shape
    if len(shape) != 2 or any(a.shape != shape for a in (threshold, left, right, value)):
        raise ModelError(f"{path}: tree arrays differ in shape")
    m = shape[1]
    if shape[0] and (
        feature.min() < 0
        or feature.max() >= len(names)
        or min(left.min(), right.min()) < 0
        or max(left.max(), right.max()) >= m
    ):
        raise ModelError(f"{path}: a node points outside its tree or its features")
    cal = doc.get("calibration", {})
    cal_x = _array(cal, "x", np.float64)
    cal_y = _array(cal, "y", np.float64)
    if cal_x.ndim != 1 or cal_x.shape != cal_y.shape or len(cal_x) < 2:
        raise ModelError(f"{path}: calibration curve is malformed")
    if np.any(np.diff(cal_x) < 0) or np.any(np.diff(cal_y) < -1e-12):
        raise ModelError(f"{path}: calibration curve is not monotone")
    by_lexical = None
    if "by_lexical" in cal:
        if any(n not in names for n in LEXICAL_PASS):
            raise ModelError(f"{path}: a calibration by lexical outcome needs the lexical view")
        by_lexical = {}
        for side in ("pass", "fail"):
            part = cal["by_lexical"].get(side, {}) if isinstance(cal["by_lexical"], dict) else {}
            sx, sy = _array(part, "x", np.float64), _array(part, "y", np.float64)
            if sx.ndim != 1 or sx.shape != sy.shape or len(sx) < 2:
                raise ModelError(f"{path}: calibration curve {side!r} is malformed")
            if np.any(np.diff(sx) < 0) or np.any(np.diff(sy) < -1e-12):
                raise ModelError(f"{path}: calibration curve {side!r} is not monotone")
            by_lexical[side] = (sx, sy)
    thresholds = doc.get("thresholds", {})
    try:
        partial = float(thresholds["partial"])
        supported = float(thresholds["supported"])
        depth = int(doc["depth"])
        base = float(doc["base"])
        overrule = thresholds.get("overrule_below")
        overrule_below = None if overrule is None else float(overrule)
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"{path}: thresholds, depth or base missing") from exc
    if overrule_below is not None and not 0.0 <= overrule_below <= 1.0:
        raise ModelError(f"{path}: overrule_below must be a probability")
    arrays = (threshold, value, cal_x, cal_y)
    if not all(np.isfinite(a[np.isfinite(a) | ~np.isinf(a)]).all() for a in arrays):
        raise ModelError(f"{path}: NaN in the model")
    return TreeModel(
        features=names,
        base=base,
        depth=depth,
        feature=feature,
        threshold=threshold,
        left=left,
        right=right,
        value=value,
        cal_x=cal_x,
        cal_y=cal_y,
        partial_threshold=partial,
        supported_threshold=supported,
        meta=dict(doc.get("training", {})),
        overrule_below=overrule_below,
        cal_by_lexical=by_lexical,
    )
