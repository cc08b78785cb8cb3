"""The learned score's calibration (session 15 round 2): the form chosen by cross-fitted
log loss, curves per lexical outcome read from the row's own lexical view, and an
overrule bound carried to a new curve so that the stacked verdicts stay as they were."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.calibration import (
    apply_calibration,
    carry_bound,
    choose_calibration,
    expected_calibration_error,
    fit_calibration,
)
from groundwire.guards.grounding.learned import FEATURES, LearnedVerifier, ModelError
from groundwire.guards.grounding.learned.lexical_view import VIEW
from groundwire.guards.grounding.learned.model import load_model
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim, SourceTurn
from tests.unit.guards.grounding.leaf_models import LINEAR, leaf_model

NAMES = (*FEATURES, *VIEW)
TURNS = [SourceTurn(id="t1", text="Priya leads the payments team since March.", source="corpus")]


SPLIT = {
    "x": [-5.0, 5.0],
    "y": [0.0, 1.0],
    "by_lexical": {
        "pass": {"x": [-5.0, 5.0], "y": [0.2, 1.0]},
        "fail": {"x": [-5.0, 5.0], "y": [0.0, 0.2]},
    },
}


def _score(path: Path, claim: str) -> float:
    v = LearnedVerifier(GroundingConfig(verifier="learned", learned_model_path=path))
    c = Claim(claim_id="c", tenant_id="t", content=claim, source="chat", source_turns=TURNS)
    score = v.verify_one(GroundingRequest(c, TURNS)).score
    assert score is not None
    return score


def test_a_split_calibration_reads_the_curve_of_the_lexical_outcome(tmp_path: Path) -> None:
    path = leaf_model(tmp_path / "m.json", NAMES, raw=0.0, calibration=SPLIT)
    # raw 0 is the middle of each curve: 0.6 where the lexical verdict passes, 0.1 not
    assert _score(path, "Priya has led the payments team since March.") == pytest.approx(0.6)
    assert _score(path, "Bob writes poems about the sea.") == pytest.approx(0.1)


def test_one_curve_reads_the_same_for_either_lexical_outcome(tmp_path: Path) -> None:
    # the control: without `by_lexical` both claims read the one curve
    path = leaf_model(tmp_path / "m.json", NAMES, raw=0.0, calibration=LINEAR)
    assert _score(path, "Priya has led the payments team since March.") == pytest.approx(0.5)
    assert _score(path, "Bob writes poems about the sea.") == pytest.approx(0.5)


def test_a_split_curve_that_falls_fails_at_start(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(SPLIT))
    bad["by_lexical"]["fail"]["y"] = [0.3, 0.1]
    with pytest.raises(ModelError, match="not monotone"):
        load_model(leaf_model(tmp_path / "m.json", NAMES, raw=0.0, calibration=bad))


def test_a_split_curve_without_the_lexical_view_fails_at_start(tmp_path: Path) -> None:
    path = leaf_model(tmp_path / "m.json", NAMES, raw=0.0, calibration=SPLIT)
    doc = json.loads(path.read_text())
    doc["features"] = list(FEATURES)
    path.write_text(json.dumps(doc))
    with pytest.raises(ModelError, match="lexical view"):
        load_model(path)


def test_carry_bound_keeps_every_decision_at_the_same_raw_cut() -> None:
    rng = np.random.default_rng(0)
    old = (np.array([-4.0, -1.0, 0.0, 3.0]), np.array([0.0, 0.1, 0.4, 0.9]))
    raw = rng.normal(0.0, 2.0, 400)
    y = (rng.random(400) < 1 / (1 + np.exp(-raw))).astype(float)
    new = fit_calibration("platt", raw, y, np.ones(400), np.ones(400, bool))["all"]
    bound = carry_bound(0.225, old, new)
    before = np.interp(raw, *old) < 0.225
    after = np.interp(raw, *new) < bound
    assert before.sum() > 20 and (before == after).all()
    # a bound under the old curve's floor overrules nothing on the new scale either
    assert carry_bound(-0.1, old, new) == 0.0


def test_choose_calibration_takes_the_curve_per_lexical_outcome_when_it_fits_better() -> None:
    # the same raw score means support where the lexical verdict passes and none where it
    # does not: one curve cannot say both, the split one can
    rng = np.random.default_rng(1)
    n = 1200
    raw = rng.normal(0.0, 1.0, n)
    lex = rng.random(n) < 0.5
    y = np.where(lex, rng.random(n) < 0.85, rng.random(n) < 0.05).astype(float)
    folds = np.arange(n) % 5
    groups = ["a" if i % 2 else "b" for i in range(n)]
    choice = choose_calibration(raw, y, np.ones(n), lex, folds, groups)
    assert choice.kind.endswith("by-lexical")


def test_choose_calibration_keeps_one_curve_when_the_lexical_outcome_says_nothing() -> None:
    rng = np.random.default_rng(2)
    n = 1200
    raw = rng.normal(0.0, 2.0, n)
    lex = rng.random(n) < 0.5
    y = (rng.random(n) < 1 / (1 + np.exp(-raw))).astype(float)
    choice = choose_calibration(raw, y, np.ones(n), lex, np.arange(n) % 5, ["a"] * n)
    assert not choice.kind.endswith("by-lexical")


def test_split_curves_need_the_lexical_outcome() -> None:
    curves = {"pass": (np.array([0.0, 1.0]),) * 2, "fail": (np.array([0.0, 1.0]),) * 2}
    with pytest.raises(ValueError):
        apply_calibration(curves, np.array([0.5]), None)


def test_expected_calibration_error() -> None:
    assert expected_calibration_error(np.array([0.25] * 4), np.array([0, 0, 0, 1.0])) == 0.0
    assert expected_calibration_error(np.array([0.9] * 2), np.array([0.0, 0.0])) == 0.9
