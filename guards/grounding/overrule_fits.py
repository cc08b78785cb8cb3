"""Other ways to fit the trees behind the stacked overrule, compared out of fold (session 18).

The packaged learned verifier is stacked on the lexical verdict (`overrule_below`): its
trees only ever turn a passing lexical verdict into NOT_SUPPORTED. Session 16 found that
out of fold the right overrules are BEGIN's and the wrong ones SummEdits' (one earnings
call, one podcast episode), and listed what was not tried. This module holds those fits so
that `scripts/compare_overrule_fits.py` can read each one nested (`stacking.compare`):

* the trees fitted on the dialogue groups alone (BEGIN and FaithDial's fit half), or with
  the SummEdits rows down-weighted (`FitVariant.train_on`, `summedits_weight`);
* scikit-learn's `HistGradientBoostingClassifier`, optionally with monotone constraints
  (`MONOTONE_SIGNS`: a feature that measures agreement with the source can only raise
  P(supported), one that measures a contradiction or something missing only lower it),
  and its export to the flat arrays the verifier walks (`export_hist_trees`), so such a
  model would load as any other (`learned/model.py`);
* a bound that only overrules short claims (`short_claims_rule`: single statements, where
  the overrules were right, against multi-sentence summaries of long documents);
* candidate features read from the pair's text (`candidate_features`): the share of claim
  content words found in no source turn at all, a first-person clause whose words the
  source lacks, and an address to the listener the source lacks;
* re-drawn fold partitions (`salted_folds`), because one partition's nested figure moves
  by more than the differences between the fits.

Training time only: nothing here is read at run time, and nothing here is shipped in the
packaged model (docs/grounding.md, Session 18, says why).
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from groundwire.guards.grounding.lexical.text import (
    FIRST_PERSON,
    NEGATIONS,
    SECOND_PERSON,
    STOPWORDS,
    WORD,
    stem,
)
from groundwire.guards.grounding.stacking import BOUNDS, Rows, Rule

__all__ = [
    "CANDIDATE_FEATURES",
    "DIALOGUE_PREFIXES",
    "MONOTONE_SIGNS",
    "FitVariant",
    "candidate_features",
    "export_hist_trees",
    "held_apart_raw",
    "monotone_constraints",
    "salted_folds",
    "short_claims_rule",
]

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

# groups of knowledge-grounded dialogue (the dev file's fit half)
DIALOGUE_PREFIXES = ("begin", "faithdial")

# +1: the more of it, the likelier the claim is supported (coverage, alignment, the lexical
# verdict's own score and SUPPORTED); -1: the less likely (words, numbers, names or dates
# the source lacks; contradictions, negation flips, the lexical rules that refuse or cap).
# Features whose direction depends on the kind of conversation (first person, length,
# speaker shares) are left free.
MONOTONE_SIGNS: dict[str, int] = {
    **dict.fromkeys(
        (
            "coverage",
            "best_sentence_coverage",
            "bigram_coverage",
            "longest_run",
            "exact_coverage",
            "align_mean",
            "align_min",
            "align_window",
            "order_kept",
            "lex_score",
            "lex_supported",
        ),
        1,
    ),
    **dict.fromkeys(
        (
            "novel_words_log",
            "unsupported_numbers",
            "unsupported_entities",
            "negation_mismatch",
            "conflicts",
            "speaker_mismatch",
            "align_unaligned",
            "antonym_or_swap",
            "polarity_flips",
            "numbers_missing_share",
            "entities_missing_share",
            "dates_missing",
            "modal_unsupported",
            "lex_contradiction",
            "lex_ruled_out",
            "lex_capped",
            "lex_unasserted",
            # the candidate features below: each counts something the source lacks
            "words_in_no_turn",
            "first_person_unsupported",
            "address_unsupported",
        ),
        -1,
    ),
}

CANDIDATE_FEATURES = ("words_in_no_turn", "first_person_unsupported", "address_unsupported")
_CLAUSE = re.compile(r"[.;!?,]")
_OPENERS = frozenset(("and", "but", "so", "well", "yes", "no", "oh"))


def monotone_constraints(names: Sequence[str]) -> list[int]:
    """One sign per feature name, 0 where the direction is left free."""
    return [MONOTONE_SIGNS.get(n, 0) for n in names]


def salted_folds(doc_keys: Sequence[str], k: int, salt: int) -> npt.NDArray[np.int64]:
    """Folds by document, as `training._folds` draws them for salt 0; another salt draws
    another partition that still keeps each document's rows in one fold."""
    if salt == 0:
        return np.array([int(d[:8], 16) % k for d in doc_keys], dtype=np.int64)
    return np.array(
        [int(hashlib.sha1(f"{salt}:{d}".encode()).hexdigest()[:8], 16) % k for d in doc_keys],
        dtype=np.int64,
    )


def _words(text: str) -> list[str]:
    return [m.group(0).lower() for m in WORD.finditer(text)]


def _absent(words: Sequence[str], stems: set[str], prefixes: set[str]) -> list[str]:
    return [w for w in words if stem(w) not in stems and stem(w)[:4] not in prefixes]


def candidate_features(claim: str, turns: Sequence[str]) -> list[float]:
    """`CANDIDATE_FEATURES` of one claim against all its source turns (session 18's idea
    (d), measured and not shipped): the share of content words whose stem (or 4-letter
    prefix) occurs in no turn; 1 if a clause opened by the speaker ("I love ...", "but I
    have ...") carries content words the source mostly lacks and no negation (FaithDial
    counts a bot's unsupported personal claims as hallucination); 1 if a clause addressed
    to the listener ("thank your mom") is mostly words the source lacks."""
    stems = {stem(w) for t in turns for w in _words(t)}
    prefixes = {s[:4] for s in stems}
    content = [w for w in _words(claim) if w not in STOPWORDS and w.isalpha()]
    share = len(_absent(content, stems, prefixes)) / len(content) if content else 0.0
    first = address = 0.0
    for clause in _CLAUSE.split(claim):
        ws = _words(clause)
        c = [w for w in ws if w not in STOPWORDS and w.isalpha()]
        if not c:
            continue
        mostly_absent = len(_absent(c, stems, prefixes)) / len(c) >= 0.5
        opened = ws[0] in FIRST_PERSON or (
            len(ws) > 1 and ws[0] in _OPENERS and ws[1] in FIRST_PERSON
        )
        if opened and mostly_absent and not set(ws) & NEGATIONS:
            first = 1.0
        if mostly_absent and set(ws) & SECOND_PERSON:
            address = 1.0
    return [share, first, address]


@dataclass(frozen=True, slots=True)
class FitVariant:
    """How the trees are fitted: `estimator` "gbt" (the packaged kind), "hgb" or
    "hgb-monotone"; `train_on` "all" or "dialogue" (the SummEdits rows still get held-apart
    scores, from trees that never saw them); `summedits_weight` multiplies the SummEdits
    rows' weight."""

    estimator: str = "gbt"
    train_on: str = "all"
    summedits_weight: float = 1.0
    trees: int = 150
    depth: int = 2
    learning_rate: float = 0.05


def _fit(
    v: FitVariant,
    x: FloatArray,
    y: BoolArray,
    w: FloatArray,
    names: Sequence[str],
    seed: int,
) -> Any:
    if v.estimator == "gbt":
        from groundwire.guards.grounding.training import TrainConfig, _fit_gbt

        cfg = TrainConfig(trees=v.trees, depth=v.depth, learning_rate=v.learning_rate, seed=seed)
        return _fit_gbt(x, y, w, cfg)
    from sklearn.ensemble import HistGradientBoostingClassifier

    model = HistGradientBoostingClassifier(
        max_iter=v.trees,
        max_depth=v.depth,
        learning_rate=v.learning_rate,
        early_stopping=False,
        monotonic_cst=monotone_constraints(names) if v.estimator == "hgb-monotone" else None,
        random_state=seed,
    )
    model.fit(x, y, sample_weight=w)
    return model


def held_apart_raw(
    v: FitVariant,
    x: FloatArray,
    y: BoolArray,
    weight: FloatArray,
    folds: npt.NDArray[np.int64],
    groups: npt.NDArray[np.str_],
    names: Sequence[str],
    seed: int = 0,
) -> FloatArray:
    """Each row's raw score from trees fitted on the other folds (and only on the rows the
    variant trains on)."""
    dialogue = np.char.startswith(groups.astype(str), DIALOGUE_PREFIXES[0]) | np.char.startswith(
        groups.astype(str), DIALOGUE_PREFIXES[1]
    )
    summedits = np.char.startswith(groups.astype(str), "summedits")
    w = weight * np.where(summedits, v.summedits_weight, 1.0)
    rows = dialogue if v.train_on == "dialogue" else np.ones(len(y), dtype=bool)
    out = np.zeros(len(y))
    for k in sorted(set(folds.tolist())):
        fit_rows = (folds != k) & rows
        model = _fit(v, x[fit_rows], y[fit_rows], w[fit_rows], names, seed)
        out[folds == k] = model.decision_function(x[folds == k])
    return out


def short_claims_rule(claim_len_log: FloatArray) -> Rule:
    """The shipped single bound, applied only to claims shorter than a cut on
    `claim_len_log` (chosen with the bound; 9 means every claim). `claim_len_log` is the
    rows' own column, in the order of the `Rows` the rule is read on."""

    def predict(r: Rows, p: FloatArray, t: tuple[float, ...]) -> BoolArray:
        out: BoolArray = r.lex_pass & ~((p < t[0]) & (claim_len_log < t[1]))
        return out

    cuts = (2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 9.0)
    return Rule(predict, tuple(itertools.product(BOUNDS, cuts)))


def export_hist_trees(model: Any, leaf_threshold: float = 1e30) -> tuple[float, dict[str, Any]]:
    """A fitted binary `HistGradientBoostingClassifier` as (base, trees) in the verifier's
    flat-array format (`learned/model.py`: feature, threshold, left, right, value per node,
    every tree padded to one node count, a leaf pointing to itself with a threshold above
    any feature). Its leaf values already hold the learning rate; a numeric split sends
    `x <= threshold` left, as the verifier's walk does. Features never NaN here (the
    verifier's features are finite), so the missing-value direction is not kept."""
    predictors = [p[0] for p in model._predictors]
    m = max(len(p.nodes) for p in predictors)
    out: dict[str, list[list[Any]]] = {
        k: [] for k in ("feature", "threshold", "left", "right", "value")
    }
    for p in predictors:
        nodes = p.nodes
        feat = [0] * m
        thr = [leaf_threshold] * m
        left = list(range(m))
        right = list(range(m))
        value = [0.0] * m
        for i, node in enumerate(nodes):
            if node["is_leaf"]:
                value[i] = float(node["value"])
            else:
                feat[i] = int(node["feature_idx"])
                thr[i] = float(node["num_threshold"])
                left[i] = int(node["left"])
                right[i] = int(node["right"])
        out["feature"].append(feat)
        out["threshold"].append(thr)
        out["left"].append(left)
        out["right"].append(right)
        out["value"].append(value)
    base = float(np.asarray(model._baseline_prediction).ravel()[0])
    return base, out
