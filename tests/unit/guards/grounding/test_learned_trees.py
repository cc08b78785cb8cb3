"""The trees read position by position (`TreeModel.raw`, session 14) give the log-odds the
round-by-round walk over child pointers gave (`_walk`: `raw` as it stood at faa7405),
bit for bit: the packaged model, random rows with NaN and ties on thresholds, and
synthetic trees with leaves above the last level, of depths 0 to 3."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from groundwire.guards.grounding.learned import FEATURES, load_model
from groundwire.guards.grounding.learned.model import TreeModel, packaged_model_path
from groundwire.guards.grounding.learned.verifier import FEATURES_WITH_VIEW


def _walk(m: TreeModel, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The old `raw`: `depth` rounds of node-index gathers over (claims x trees)."""
    width = m.feature.shape[1]
    start = np.arange(m.trees, dtype=np.int64) * width
    feature, threshold = m.feature.ravel(), m.threshold.ravel()
    left, right = m.left.ravel(), m.right.ravel()
    at = np.broadcast_to(start, (x.shape[0], m.trees))
    for _ in range(m.depth):
        go_left = np.take_along_axis(x, feature[at], axis=1) <= threshold[at]
        at = start + np.where(go_left, left[at], right[at])
    out: npt.NDArray[np.float64] = m.base + m.value.ravel()[at].sum(axis=1)
    return out


def _rows(m: TreeModel, n: int, seed: int) -> npt.NDArray[np.float64]:
    rng = np.random.default_rng(seed)
    x = rng.normal(0.5, 1.5, size=(n, len(m.features)))
    # ties: some values exactly on a threshold the trees use (<= goes left)
    used = m.threshold[np.isfinite(m.threshold)]
    if used.size:
        ties = rng.random(x.shape) < 0.1
        x[ties] = rng.choice(used, size=int(ties.sum()))
    x[rng.random(x.shape) < 0.02] = np.nan  # NaN goes right, as in the walk
    return x


def test_the_packaged_model_scores_as_the_walk_to_the_bit() -> None:
    m = load_model(packaged_model_path(), FEATURES_WITH_VIEW)
    for n, seed in ((1, 0), (7, 1), (500, 2)):
        x = _rows(m, n, seed)
        assert np.array_equal(m.raw(x), _walk(m, x))


def _random_model(depth: int, trees: int, seed: int) -> TreeModel:
    """Trees of `depth` stored as the trainer stores them (node 0 the root, a leaf
    pointing to itself with an infinite threshold), some cut short: a node is a leaf
    with probability 0.3 before the last level."""
    rng = np.random.default_rng(seed)
    width = (1 << (depth + 1)) - 1
    shape = (trees, width)
    feature = np.zeros(shape, dtype=np.int64)
    threshold = np.full(shape, np.inf)
    left = np.tile(np.arange(width, dtype=np.int64), (trees, 1))
    right = left.copy()
    value = np.zeros(shape)
    for t in range(trees):
        nxt = 1
        todo = [(0, 0)]
        while todo:
            node, level = todo.pop()
            if level == depth or rng.random() < 0.3:
                value[t, node] = rng.normal()
                continue
            feature[t, node] = rng.integers(0, len(FEATURES))
            threshold[t, node] = rng.normal(0.5, 1.0)
            left[t, node], right[t, node] = nxt, nxt + 1
            todo += [(nxt, level + 1), (nxt + 1, level + 1)]
            nxt += 2
    return TreeModel(
        features=FEATURES,
        base=float(rng.normal()),
        depth=depth,
        feature=feature,
        threshold=threshold,
        left=left,
        right=right,
        value=value,
        cal_x=np.array([-5.0, 5.0]),
        cal_y=np.array([0.0, 1.0]),
        partial_threshold=0.3,
        supported_threshold=0.6,
        meta={},
    )


@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_trees_cut_short_score_as_the_walk(depth: int) -> None:
    for seed in range(3):
        m = _random_model(depth, trees=40, seed=seed)
        x = _rows(m, 64, seed)
        assert np.array_equal(m.raw(x), _walk(m, x))


def test_no_rows_and_no_trees() -> None:
    m = _random_model(2, trees=0, seed=0)
    x = _rows(m, 3, 0)
    assert np.array_equal(m.raw(x), _walk(m, x))
    m = _random_model(2, trees=5, seed=0)
    assert m.raw(np.zeros((0, len(FEATURES)))).shape == (0,)
