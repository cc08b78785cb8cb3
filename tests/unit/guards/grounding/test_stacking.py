"""Stacking rules compared out of fold (session 16, `guards/grounding/stacking.py`): a rule
whose overrules are right beats the lexical verdict nested as well as in-sample; where
every overrule would be wrong, the nested choice overrules nothing and ties the lexical
verdict; a bound per lexical outcome leaves the outcome alone whose low scores are right."""

from __future__ import annotations

import numpy as np

from groundwire.guards.grounding.stacking import RULES, Rows, compare, family_mean, group_mean

N = 400


def _rows(
    y: np.ndarray, raw: np.ndarray, sup: np.ndarray, part: np.ndarray, groups: list[str]
) -> Rows:
    return Rows(
        raw=raw.astype(float),
        y=y.astype(bool),
        weight=np.ones(len(y)),
        lex_supported=sup.astype(bool),
        lex_partial=part.astype(bool),
        lex_score=np.full(len(y), 0.5),
        fold=np.arange(len(y)) % 5,
        group=np.array(groups),
        in_domain=np.ones(len(y), dtype=bool),
    )


def _two_groups() -> list[str]:
    return ["begin-a" if i % 2 else "summedits-b" for i in range(N)]


def test_right_overrules_beat_the_lexical_verdict_out_of_fold() -> None:
    rng = np.random.default_rng(1)
    y = rng.random(N) < 0.5
    # the lexical verdict passes every claim; the learned score tells them apart
    raw = np.where(y, rng.normal(2.0, 0.5, N), rng.normal(-2.0, 0.5, N))
    r = _rows(y, raw, np.zeros(N), np.ones(N), _two_groups())
    out = compare(r, {"single": RULES["single bound (shipped)"]})
    assert out["lexical"].nested_mean == 0.5
    assert out["single"].nested_mean > 0.95
    assert out["single"].settings[0] > 0


def test_wrong_overrules_are_not_chosen_and_tie_the_lexical_verdict() -> None:
    rng = np.random.default_rng(2)
    y = rng.random(N) < 0.5
    # the lexical verdict is right on every claim: it passes exactly the supported ones,
    # and their learned scores spread low and high; overruling any of them is an error
    raw = np.where(y, rng.normal(0.0, 0.5, N), rng.normal(-0.25, 0.5, N))
    r = _rows(y, raw, np.zeros(N), y, _two_groups())
    out = compare(r, {"single": RULES["single bound (shipped)"]})
    assert out["lexical"].nested_mean == 1.0
    assert out["single"].settings == (0.0,)
    assert all(t == (0.0,) for t in out["single"].per_fold)
    assert out["single"].nested_mean == out["lexical"].nested_mean


def test_bound_per_outcome_spares_the_outcome_whose_low_scores_are_right() -> None:
    rng = np.random.default_rng(3)
    y = rng.random(N) < 0.5
    sup = np.arange(N) % 4 < 2  # half the claims lexically SUPPORTED, half PARTIAL
    raw = rng.normal(0.0, 2.0, N)
    # PARTIAL claims with a low learned score are unsupported; SUPPORTED ones supported
    y = np.where(sup, True, raw > 0) | (rng.random(N) < 0.02)
    y[:8] = False  # each group keeps both labels among SUPPORTED claims too
    r = _rows(y, raw, sup, ~sup, _two_groups())
    out = compare(r, {"per outcome": RULES["bound per lexical outcome"]})
    assert out["per outcome"].settings[0] == 0.0  # SUPPORTED never overruled
    assert out["per outcome"].settings[1] > 0.0  # PARTIAL overruled under a bound
    assert out["per outcome"].nested_mean > out["lexical"].nested_mean


def test_family_mean_weighs_each_family_the_same() -> None:
    per = {"begin-a": 1.0, "begin-b": 1.0, "begin-c": 1.0, "summedits-x": 0.0}
    assert group_mean(per) == 0.75
    assert family_mean(per) == 0.5


def test_bound_per_outcome_reads_each_outcome_by_its_own_bound() -> None:
    sup = np.array([True, True, False, False, False])
    part = np.array([False, False, True, True, False])  # the last: lexically NOT_SUPPORTED
    r = _rows(np.ones(5), np.zeros(5), sup, part, ["begin-a"] * 5)
    p = np.array([0.1, 0.4, 0.1, 0.4, 0.9])
    rule = RULES["bound per lexical outcome"]
    assert rule.predict(r, p, (0.0, 0.3)).tolist() == [True, True, False, True, False]
    assert rule.predict(r, p, (0.3, 0.0)).tolist() == [False, True, True, True, False]
