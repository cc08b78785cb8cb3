"""Session 18's fits of the overrule's trees (`guards/grounding/overrule_fits.py`): a
monotone histogram-boosted model exported to the verifier's flat arrays scores as
scikit-learn does; re-drawn fold partitions keep each document in one fold; the
short-claims rule only overrules short claims; the candidate features read what they
say; the monotone signs name only features the model has."""

from __future__ import annotations

import numpy as np
import pytest

from groundwire.guards.grounding.learned.features import FEATURES
from groundwire.guards.grounding.learned.lexical_view import VIEW
from groundwire.guards.grounding.learned.model import TreeModel
from groundwire.guards.grounding.overrule_fits import (
    CANDIDATE_FEATURES,
    MONOTONE_SIGNS,
    FitVariant,
    candidate_features,
    export_hist_trees,
    held_apart_raw,
    monotone_constraints,
    salted_folds,
    short_claims_rule,
)
from groundwire.guards.grounding.stacking import Rows


def _tree_model(base: float, trees: dict[str, list[list[float]]], n: int, depth: int) -> TreeModel:
    a = {k: np.asarray(v) for k, v in trees.items()}
    return TreeModel(
        features=tuple(f"f{i}" for i in range(n)),
        base=base,
        depth=depth,
        feature=a["feature"].astype(np.int64),
        threshold=a["threshold"].astype(float),
        left=a["left"].astype(np.int64),
        right=a["right"].astype(np.int64),
        value=a["value"].astype(float),
        cal_x=np.array([0.0, 1.0]),
        cal_y=np.array([0.0, 1.0]),
        partial_threshold=0.5,
        supported_threshold=0.7,
        meta={},
    )


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_exported_hist_trees_score_as_sklearn(depth: int) -> None:
    sklearn = pytest.importorskip("sklearn.ensemble")
    rng = np.random.default_rng(depth)
    x = rng.normal(size=(600, 4))
    y = (x[:, 0] + 0.5 * x[:, 1] - 0.3 * x[:, 3] + rng.normal(size=600) * 0.5) > 0
    model = sklearn.HistGradientBoostingClassifier(
        max_iter=40, max_depth=depth, early_stopping=False, monotonic_cst=[1, 1, 0, -1]
    ).fit(x, y)
    base, trees = export_hist_trees(model)
    walked = _tree_model(base, trees, 4, depth)
    x_new = rng.normal(size=(300, 4))
    # ties on a threshold go left in both
    x_new[:5, 0] = walked.threshold[0, 0] if walked.threshold[0, 0] < 1e29 else 0.0
    np.testing.assert_allclose(walked.raw(x_new), model.decision_function(x_new), atol=1e-9)


def test_monotone_constraint_holds_in_the_exported_model() -> None:
    sklearn = pytest.importorskip("sklearn.ensemble")
    rng = np.random.default_rng(7)
    x = rng.normal(size=(800, 2))
    # the label falls with feature 0 in one region: unconstrained trees would follow it
    y = (np.sin(3 * x[:, 0]) + x[:, 1] + rng.normal(size=800) * 0.3) > 0
    model = sklearn.HistGradientBoostingClassifier(
        max_iter=60, max_depth=2, early_stopping=False, monotonic_cst=[1, 0]
    ).fit(x, y)
    walked = _tree_model(*export_hist_trees(model), 2, 2)
    grid = np.column_stack([np.linspace(-3, 3, 200), np.zeros(200)])
    assert np.all(np.diff(walked.raw(grid)) >= -1e-12)


def test_salted_folds_keep_documents_together_and_partition_zero_is_the_trainings() -> None:
    docs = [f"{i % 37:016x}" for i in range(400)]
    zero = salted_folds(docs, 5, 0)
    assert list(zero) == [int(d[:8], 16) % 5 for d in docs]
    other = salted_folds(docs, 5, 3)
    for d in set(docs):
        assert len({int(other[i]) for i, e in enumerate(docs) if e == d}) == 1
    assert not np.array_equal(zero, other)
    assert set(other.tolist()) == set(range(5))


def test_short_claims_rule_overrules_only_short_claims() -> None:
    n = 6
    rows = Rows(
        raw=np.zeros(n),
        y=np.zeros(n, dtype=bool),
        weight=np.ones(n),
        lex_supported=np.ones(n, dtype=bool),
        lex_partial=np.zeros(n, dtype=bool),
        lex_score=np.full(n, 0.5),
        fold=np.arange(n) % 5,
        group=np.array(["begin-a"] * n),
        in_domain=np.ones(n, dtype=bool),
    )
    lengths = np.array([1.0, 2.0, 2.9, 3.1, 3.5, 4.0])
    rule = short_claims_rule(lengths)
    p = np.full(n, 0.1)
    passes = rule.predict(rows, p, (0.2, 3.0))
    assert list(passes) == [False, False, False, True, True, True]
    assert rule.predict(rows, p, (0.2, 9.0)).sum() == 0  # cut 9: every claim
    assert rule.predict(rows, p, (0.0, 9.0)).all()  # bound 0: nothing overruled


def test_candidate_features() -> None:
    turns = ["The Eiffel Tower was completed in 1889 for the World's Fair."]
    assert candidate_features("The Eiffel Tower was completed in 1889.", turns) == [0.0, 0.0, 0.0]
    share, first, address = candidate_features("I love climbing mountains every summer.", turns)
    assert share == 1.0 and first == 1.0 and address == 0.0
    # a hedge with a negation is not a personal claim the source lacks
    assert (
        candidate_features("I am not sure, but the tower was completed in 1889.", turns)[1] == 0.0
    )
    assert candidate_features("Thank your mom for the tower tip.", turns)[2] == 1.0


def test_monotone_signs_name_known_features_only() -> None:
    known = set(FEATURES) | set(VIEW) | set(CANDIDATE_FEATURES)
    assert set(MONOTONE_SIGNS) <= known
    signs = monotone_constraints((*FEATURES, *VIEW))
    assert signs[(*FEATURES, *VIEW).index("lex_score")] == 1
    assert signs[(*FEATURES, *VIEW).index("lex_contradiction")] == -1
    assert signs[(*FEATURES, *VIEW).index("claim_len_log")] == 0


def test_dialogue_only_fit_never_sees_summedits_rows() -> None:
    pytest.importorskip("sklearn")
    rng = np.random.default_rng(3)
    n = 300
    groups = np.array(["begin-a" if i % 2 else "summedits-b" for i in range(n)])
    x = rng.normal(size=(n, 2))
    # the dialogue rows' label follows feature 0, the summary rows' the opposite way
    y = np.where(groups == "begin-a", x[:, 0] > 0, x[:, 0] < 0)
    folds = np.arange(n) % 5
    names = ("f0", "f1")
    only = held_apart_raw(
        FitVariant(train_on="dialogue", trees=30), x, y, np.ones(n), folds, groups, names
    )
    summ = groups == "summedits-b"
    # trees fitted on the dialogue rows alone rank the summary rows the dialogue way
    assert np.corrcoef(only[summ], x[summ, 0])[0, 1] > 0.5
