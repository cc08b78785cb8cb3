"""Training the learned verifier: public labelled pairs -> boosted trees -> calibration.

Run it through `python scripts/train_grounding.py` (docs/grounding.md gives the exact
command and where each file comes from). Needs the `train` extra (scikit-learn); the
verifier itself does not: the result is a JSON file of arrays (`learned/model.py`).

Sources (each a *group*; a group's rows weigh as much as any other group's, and within a
group each label weighs half, because the target is per-dataset balanced accuracy):

* DocNLI's binary MNLI and binary FEVER dev/test files (`label<TAB>premise<TAB>hypothesis`),
* SummEdits domains as released in salesforce/factualNLG (`summedits_<domain>.json`,
  `doc` / `summary` / `label`); ectsum, news, podcast, sales_email and scitldr by default,
* the fit half of the labelled development file (`groundwire eval`'s split), minus the
  datasets excluded for their licence (summedits-samsum: SAMSum is CC BY-NC-ND 4.0).

Procedure: features for every pair (`learned.features.extract`, in worker processes);
5-fold out-of-fold predictions with folds grouped by source document (a SummEdits
document carries several edited summaries; all of them fall in one fold); a calibration
fitted on the in-domain groups' held-apart predictions, its form (isotonic or Platt, one
curve or one per lexical outcome) chosen by cross-fitted log loss
(`calibration.choose_calibration`; session 15 round 2); the partial threshold chosen on them
to maximise mean per-group balanced accuracy over the in-domain groups; then the final
model on everything. Nothing reads the test half of the development file. With `stack`
(and `lexical_view`) the bound under which the learned score overrules a passing lexical
verdict is chosen on the same out-of-fold scores (`choose_overrule`).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from groundwire.guards.grounding.calibration import (
    CANDIDATES,
    apply_calibration,
    carry_bound,
    choose_calibration,
    fit_calibration,
)
from groundwire.guards.grounding.evaluation import load_examples
from groundwire.guards.grounding.learned.features import EMBED_EXTRA, FEATURES, extract
from groundwire.guards.grounding.learned.lexical_view import VIEW, extract_with_view, lexical_twin
from groundwire.guards.grounding.learned.model import FORMAT
from groundwire.guards.grounding.lexical import known_names
from groundwire.topics.records import Claim, SourceTurn
from groundwire.topics.vocab import Source

__all__ = ["Pair", "TrainConfig", "train"]

MAX_EVIDENCE = 50_000
# a leaf's threshold: every feature is below it, so a leaf "goes left" to itself
LEAF_THRESHOLD = 1e30
LICENCE_EXCLUDED = ("summedits-samsum",)
DEFAULT_SUMMEDITS = ("ectsum", "news", "podcast", "sales_email", "scitldr")
FORBIDDEN_SUMMEDITS = ("qmsumm", "sales_call", "samsum")


@dataclass(frozen=True, slots=True)
class Pair:
    group: str
    claim: str
    source: str  # one source turn's text
    supported: bool
    doc_key: str  # rows sharing a document share a fold
    in_domain: bool  # thresholds are chosen on these groups
    user_id: str = ""
    subject: str | None = None
    turns: tuple[tuple[str, str], ...] = ()  # (id, text) when more than one turn


@dataclass(slots=True)
class TrainConfig:
    docnli_dir: Path | None = None
    summedits_dir: Path | None = None
    summedits_domains: tuple[str, ...] = DEFAULT_SUMMEDITS
    dev_file: Path | None = None
    exclude_dev: tuple[str, ...] = LICENCE_EXCLUDED
    embedding: bool = False
    # the lexical verifier's judgement as features (`learned.lexical_view`); off by
    # default: the shipped model has the 33 features (docs/grounding.md)
    lexical_view: bool = False
    trees: int = 300
    depth: int = 3
    learning_rate: float = 0.05
    subsample: float = 0.8
    # weight of the in-domain groups' rows against the out-of-domain ones (DocNLI), 1: the
    # same per group
    in_domain_weight: float = 1.0
    # stacked on the lexical verdict (needs `lexical_view`): the lexical verdict stands
    # unless the learned score is under `overrule_below`, chosen on the out-of-fold scores
    stack: bool = False
    # the calibration's form (`calibration.CANDIDATES`), or "auto": chosen by cross-fitted
    # log loss on the in-domain groups' out-of-fold scores
    calibration: str = "auto"
    # a model file whose trees are kept (only the calibration is fitted again; the
    # overrule bound is carried to the new scale, `calibration.carry_bound`)
    keep_trees: Path | None = None
    folds: int = 5
    seed: int = 0
    workers: int = 2
    cache_dir: Path | None = None
    log: Any = field(default=print)


def _key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "replace")).hexdigest()[:16]


def load_docnli(directory: Path) -> list[Pair]:
    out: list[Pair] = []
    for name, group in (("binary-MNLI", "docnli-mnli"), ("binary-FEVER-NLI", "docnli-fever")):
        for split in ("dev", "test"):
            path = directory / f"{name}_{split}.txt"
            if not path.is_file():
                path = directory / name / f"{split}.txt"
            for line in path.read_text("utf-8", errors="replace").splitlines():
                parts = line.split("\t")
                if len(parts) != 3 or parts[0] not in ("entailment", "not_entailment"):
                    continue
                label, premise, hypothesis = parts
                if not premise.strip() or not hypothesis.strip():
                    continue
                out.append(
                    Pair(
                        group,
                        hypothesis.strip(),
                        premise.strip()[:MAX_EVIDENCE],
                        label == "entailment",
                        _key(premise),
                        in_domain=False,
                    )
                )
    return out


def load_summedits(directory: Path, domains: Iterable[str]) -> list[Pair]:
    out: list[Pair] = []
    for domain in domains:
        if domain in FORBIDDEN_SUMMEDITS:
            raise ValueError(f"SummEdits {domain} is held out for evaluation; not trained on")
        rows = json.loads((directory / f"summedits_{domain}.json").read_text("utf-8"))
        for row in rows:
            if row.get("label") not in (0, 1) or not row.get("summary") or not row.get("doc"):
                continue
            out.append(
                Pair(
                    f"summedits-{domain}",
                    str(row["summary"]).strip(),
                    str(row["doc"])[:MAX_EVIDENCE],
                    row["label"] == 1,
                    _key(str(row["doc"])),
                    in_domain=True,
                )
            )
    return out


def load_dev_fit(path: Path, exclude: Sequence[str]) -> list[Pair]:
    out: list[Pair] = []
    for e in load_examples(path, "fit"):
        if e.dataset in exclude:
            continue
        turns = tuple((t.id, t.text) for t in e.claim.source_turns)
        out.append(
            Pair(
                e.dataset,
                e.claim.content,
                turns[0][1] if len(turns) == 1 else "",
                e.supported,
                _key("\n".join(t for _, t in turns)),
                in_domain=True,
                user_id=e.claim.user_id,
                subject=e.claim.subject,
                turns=turns if len(turns) > 1 else (),
            )
        )
    return out


def pair_claim(p: Pair) -> Claim:
    turns = [SourceTurn(id=i, text=t, source="corpus") for i, t in p.turns] or [
        SourceTurn(id="k0", text=p.source, source="corpus")
    ]
    return Claim(
        claim_id="train",
        tenant_id="train",
        content=p.claim[:4000],
        source=Source.AI_SYNTHESIS,
        source_turns=turns,
        user_id=p.user_id or "",
        subject=p.subject,
    )


def _features_of(p: Pair) -> list[float]:
    claim = pair_claim(p)
    turns = claim.source_turns
    return extract(claim.content, turns, known_names(claim, turns)).values


_TWIN: Any = None


def _view_features_of(p: Pair) -> list[float]:
    """`FEATURES + VIEW`, computed as the verifier computes them at run time."""
    global _TWIN
    if _TWIN is None:
        _TWIN = lexical_twin()
    claim = pair_claim(p)
    turns = claim.source_turns
    return extract_with_view(_TWIN, claim, turns, known_names(claim, turns))[2]


_EMBED: Any = None


def _embed_features_of(p: Pair) -> list[float]:
    global _EMBED
    if _EMBED is None:
        from groundwire.guards.grounding.embedding import EmbeddingVerifier

        _EMBED = EmbeddingVerifier()
    claim = pair_claim(p)
    extra = _EMBED.extra_features(claim.content, claim.source_turns)
    return [extra[n] for n in EMBED_EXTRA]


def feature_matrix(
    pairs: Sequence[Pair], workers: int, embedding: bool = False, view: bool = False
) -> npt.NDArray[np.float64]:
    func = _embed_features_of if embedding else _view_features_of if view else _features_of
    if workers <= 1:
        rows = [func(p) for p in pairs]
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            rows = pool.map(func, pairs, chunksize=64)
    return np.asarray(rows, dtype=np.float64)


def cached_matrix(
    pairs: Sequence[Pair], cfg: TrainConfig, names: Sequence[str], embedding: bool
) -> npt.NDArray[np.float64]:
    """Features for `pairs`, reused from `cache_dir` when the pairs and names match."""
    digest = hashlib.sha1()
    for p in pairs:
        digest.update(f"{p.group}\0{p.claim}\0{p.source}\0{p.turns}\0{p.supported}\n".encode())
    digest.update(repr(tuple(names)).encode())
    path = None
    if cfg.cache_dir is not None:
        cfg.cache_dir.mkdir(parents=True, exist_ok=True)
        path = cfg.cache_dir / f"features-{digest.hexdigest()[:16]}.npy"
        if path.is_file():
            cached: npt.NDArray[np.float64] = np.asarray(np.load(path), dtype=np.float64)
            return cached
    t0 = time.perf_counter()
    x = feature_matrix(pairs, cfg.workers, embedding, view=tuple(names) != FEATURES)
    cfg.log(f"features: {x.shape} in {time.perf_counter() - t0:.0f}s")
    if path is not None:
        np.save(path, x)
    return x


def group_weights(pairs: Sequence[Pair]) -> npt.NDArray[np.float64]:
    """Each group weighs the same, each label half of its group."""
    cells = Counter((p.group, p.supported) for p in pairs)
    labels = defaultdict(set)
    for g, y in cells:
        labels[g].add(y)
    w = np.array([1.0 / (cells[(p.group, p.supported)] * len(labels[p.group])) for p in pairs])
    out: npt.NDArray[np.float64] = w * (len(w) / float(w.sum()))
    return out


def natural_weights(pairs: Sequence[Pair]) -> npt.NDArray[np.float64]:
    """Each group weighs the same, its labels in their own proportion (calibration)."""
    sizes = Counter(p.group for p in pairs)
    w = np.array([1.0 / sizes[p.group] for p in pairs])
    out: npt.NDArray[np.float64] = w * (len(w) / float(w.sum()))
    return out


def _folds(pairs: Sequence[Pair], k: int) -> npt.NDArray[np.int64]:
    return np.array([int(p.doc_key[:8], 16) % k for p in pairs], dtype=np.int64)


def _fit_gbt(
    x: npt.NDArray[np.float64],
    y: npt.NDArray[np.bool_],
    w: npt.NDArray[np.float64],
    cfg: TrainConfig,
) -> Any:
    from sklearn.ensemble import GradientBoostingClassifier

    model = GradientBoostingClassifier(
        n_estimators=cfg.trees,
        max_depth=cfg.depth,
        learning_rate=cfg.learning_rate,
        subsample=cfg.subsample,
        init="zero",
        random_state=cfg.seed,
    )
    model.fit(x, y, sample_weight=w)
    return model


def _export_trees(model: Any, depth: int) -> dict[str, list[list[Any]]]:
    """Flatten the fitted trees to equal-sized node arrays (leaves point to themselves)."""
    lr = float(model.learning_rate)
    trees = [est[0].tree_ for est in model.estimators_]
    m = max(t.node_count for t in trees)
    out: dict[str, list[list[Any]]] = {
        k: [] for k in ("feature", "threshold", "left", "right", "value")
    }
    for t in trees:
        feat = [0] * m
        thr = [LEAF_THRESHOLD] * m
        left = list(range(m))
        right = list(range(m))
        value = [0.0] * m
        for i in range(t.node_count):
            if t.children_left[i] == -1:
                value[i] = lr * float(t.value[i][0][0])
            else:
                feat[i] = int(t.feature[i])
                thr[i] = float(t.threshold[i])
                left[i] = int(t.children_left[i])
                right[i] = int(t.children_right[i])
        out["feature"].append(feat)
        out["threshold"].append(thr)
        out["left"].append(left)
        out["right"].append(right)
        out["value"].append(value)
    return out


def balanced_accuracy(y: Sequence[bool], pred: Sequence[bool]) -> float:
    hit: Counter[bool] = Counter()
    tot: Counter[bool] = Counter()
    for g, p in zip(y, pred, strict=True):
        tot[g] += 1
        hit[g] += g == p
    recalls = [hit[k] / tot[k] for k in (True, False) if tot[k]]
    return sum(recalls) / len(recalls) if recalls else float("nan")


def choose_threshold(
    scores: npt.NDArray[np.float64], pairs: Sequence[Pair]
) -> tuple[float, dict[str, float]]:
    """The threshold maximising mean per-group balanced accuracy over in-domain groups."""
    groups = sorted({p.group for p in pairs if p.in_domain})
    idx = {g: [i for i, p in enumerate(pairs) if p.group == g] for g in groups}
    ys = {g: [pairs[i].supported for i in idx[g]] for g in groups}
    best: tuple[float, float, dict[str, float]] = (0.5, -1.0, {})
    for t in np.linspace(0.05, 0.95, 181):
        per = {g: balanced_accuracy(ys[g], [scores[i] >= t for i in idx[g]]) for g in groups}
        v = float(np.mean(list(per.values())))
        if v > best[1]:
            best = (float(t), v, per)
    return best[0], best[2]


def choose_overrule(
    scores: npt.NDArray[np.float64],
    lexical_passes: npt.NDArray[np.bool_],
    pairs: Sequence[Pair],
) -> tuple[float, dict[str, float]]:
    """The stacked decision's one setting: the lexical verdict stands (`lexical_passes`:
    SUPPORTED or PARTIAL, what `groundwire eval` counts as supported) unless the learned
    score is under the returned bound, then the claim is not supported. Chosen, as the
    partial threshold is, to maximise the mean per-group balanced accuracy over the
    in-domain groups' out-of-fold scores; among equal means the lowest bound (the fewest
    lexical verdicts overruled). A bound of 0 overrules nothing."""
    groups = sorted({p.group for p in pairs if p.in_domain})
    idx = {g: np.array([i for i, p in enumerate(pairs) if p.group == g]) for g in groups}
    ys = {g: [pairs[i].supported for i in idx[g]] for g in groups}
    best: tuple[float, float, dict[str, float]] = (0.0, -1.0, {})
    for t in (round(k * 0.025, 4) for k in range(21)):  # 0, 0.025, ..., 0.5
        passes = lexical_passes & (scores >= t)
        per = {g: balanced_accuracy(ys[g], list(passes[idx[g]])) for g in groups}
        v = float(np.mean(list(per.values())))
        if v > best[1] + 1e-12:
            best = (t, v, per)
    return best[0], best[2]


def _calibration_doc(
    cal_x: npt.NDArray[np.float64],
    cal_y: npt.NDArray[np.float64],
    curves: dict[str, tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]],
) -> dict[str, Any]:
    def pts(c: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]) -> dict[str, Any]:
        return {"x": [round(float(v), 6) for v in c[0]], "y": [round(float(v), 6) for v in c[1]]}

    doc = pts((cal_x, cal_y))
    if "all" not in curves:
        doc["by_lexical"] = {side: pts(curves[side]) for side in ("pass", "fail")}
    return doc


def train(cfg: TrainConfig, out: Path) -> dict[str, Any]:
    """Fit, calibrate and write the model to `out`; returns the training summary."""
    pairs: list[Pair] = []
    if cfg.docnli_dir is not None:
        pairs += load_docnli(cfg.docnli_dir)
    if cfg.summedits_dir is not None:
        pairs += load_summedits(cfg.summedits_dir, cfg.summedits_domains)
    if cfg.dev_file is not None:
        pairs += load_dev_fit(cfg.dev_file, cfg.exclude_dev)
    if not pairs:
        raise ValueError("no training data: give at least one source")
    counts = Counter((p.group, p.supported) for p in pairs)
    for g in sorted({p.group for p in pairs}):
        cfg.log(f"  {g:<22} supported {counts[(g, True)]:>6}  not {counts[(g, False)]:>6}")
    names: tuple[str, ...] = (*FEATURES, *VIEW) if cfg.lexical_view else FEATURES
    x = cached_matrix(pairs, cfg, names, embedding=False)
    if cfg.embedding:
        names = (*names, *EMBED_EXTRA)
        x = np.hstack([x, cached_matrix(pairs, cfg, EMBED_EXTRA, embedding=True)])
    y = np.array([p.supported for p in pairs])
    w = group_weights(pairs)
    if cfg.in_domain_weight != 1.0:
        w = w * np.array([cfg.in_domain_weight if p.in_domain else 1.0 for p in pairs])
    folds = _folds(pairs, cfg.folds)
    oof = np.zeros(len(pairs))
    t0 = time.perf_counter()
    for k in range(cfg.folds):
        train_idx, held = folds != k, folds == k
        model = _fit_gbt(x[train_idx], y[train_idx], w[train_idx], cfg)
        oof[held] = model.decision_function(x[held])
        cfg.log(f"fold {k + 1}/{cfg.folds} ({time.perf_counter() - t0:.0f}s)")
    cal_w = natural_weights(pairs)
    yf = y.astype(float)
    if cfg.lexical_view:
        lex_pass = (x[:, names.index("lex_supported")] > 0) | (x[:, names.index("lex_partial")] > 0)
    else:
        lex_pass = np.ones(len(pairs), dtype=bool)
    # the calibration's form: fixed, or chosen by cross-fitted log loss over the
    # in-domain groups (`calibration.choose_calibration`; a split by lexical outcome
    # needs the lexical view)
    kinds = CANDIDATES if cfg.lexical_view else ("isotonic", "platt")
    inside = np.array([p.in_domain for p in pairs])
    choice = choose_calibration(
        oof[inside],
        yf[inside],
        cal_w[inside],
        lex_pass[inside],
        folds[inside],
        [p.group for p in pairs if p.in_domain],
        kinds if cfg.calibration == "auto" else (cfg.calibration,),
    )
    for kind in choice.log_loss:
        cfg.log(f"calibration {kind:<20} cross-fitted log loss {choice.log_loss[kind]:.4f}")
    # fitted on the in-domain groups' held-apart scores only (DocNLI, when in the pool,
    # trains the trees but does not set what a score means)
    curves = fit_calibration(choice.kind, oof[inside], yf[inside], cal_w[inside], lex_pass[inside])
    cal_x, cal_y = curves.get("all", curves.get("pass", (np.zeros(2), np.zeros(2))))
    if "all" not in curves:  # the file's plain curve: the one on every row, for reference
        cal_x, cal_y = fit_calibration(
            "isotonic" if choice.kind.startswith("isotonic") else "platt",
            oof[inside],
            yf[inside],
            cal_w[inside],
            lex_pass[inside],
        )["all"]
    oof_p = apply_calibration(curves, oof, lex_pass)
    partial, per_group = choose_threshold(oof_p, pairs)
    supported = min(0.95, (partial + 1.0) / 2)
    thresholds: dict[str, float] = {"partial": round(partial, 4), "supported": round(supported, 4)}
    if cfg.stack:
        if not cfg.lexical_view:
            raise ValueError("a stacked model reads the lexical verdict: add lexical_view")
        thresholds["overrule_below"], per_group = choose_overrule(oof_p, lex_pass, pairs)
    if cfg.keep_trees is not None:
        # recalibrate a shipped model: its trees, and its overrule bound carried over to
        # the new scale at the same raw cut, so every verdict stays as it was
        kept = json.loads(cfg.keep_trees.read_text("utf-8"))
        if kept.get("features") != list(names) or kept.get("depth") != cfg.depth:
            raise ValueError(f"{cfg.keep_trees} was fitted on other features or depth")
        trees = kept["trees"]
        if "overrule_below" in kept.get("thresholds", {}):
            old_x = np.asarray(kept["calibration"]["x"], float)
            old_y = np.asarray(kept["calibration"]["y"], float)
            new_x, new_y = curves.get("pass", curves.get("all", (old_x, old_y)))
            thresholds["overrule_below"] = carry_bound(
                float(kept["thresholds"]["overrule_below"]), (old_x, old_y), (new_x, new_y)
            )
        cfg.log(f"trees kept from {cfg.keep_trees}; thresholds {thresholds}")
    else:
        final = _fit_gbt(x, y, w, cfg)
        trees = _export_trees(final, cfg.depth)
    import sklearn

    summary = {
        "groups": {
            g: {"supported": counts[(g, True)], "not_supported": counts[(g, False)]}
            for g in sorted({p.group for p in pairs})
        },
        "held_apart_balanced_accuracy": {g: round(v, 4) for g, v in per_group.items()},
        "estimator": "sklearn GradientBoostingClassifier (log-loss)",
        "sklearn": sklearn.__version__,
        "trees": cfg.trees,
        "depth": cfg.depth,
        "learning_rate": cfg.learning_rate,
        "subsample": cfg.subsample,
        "in_domain_weight": cfg.in_domain_weight,
        "folds": cfg.folds,
        "seed": cfg.seed,
        "lexical_view": cfg.lexical_view,
        "stack": cfg.stack,
        "trees_kept_from": cfg.keep_trees.name if cfg.keep_trees is not None else None,
        "excluded_dev_datasets": list(cfg.exclude_dev),
        "summedits_domains": list(cfg.summedits_domains) if cfg.summedits_dir else [],
        "calibration": (
            f"{choice.kind} on 5-fold out-of-fold scores of the in-domain groups, each group "
            "equal weight, chosen by cross-fitted log loss"
        ),
        "calibration_log_loss": {k: round(v, 4) for k, v in choice.log_loss.items()},
    }
    doc = {
        "format": FORMAT,
        "features": list(names),
        "base": 0.0,
        "depth": cfg.depth,
        "trees": trees,
        "calibration": _calibration_doc(cal_x, cal_y, curves),
        "thresholds": thresholds,
        "training": summary,
    }
    out.write_text(json.dumps(doc, separators=(",", ":")) + "\n", "utf-8")
    if cfg.cache_dir is not None:  # held-apart scores, for the calibration plots
        np.save(cfg.cache_dir / "oof.npy", np.vstack([oof_p, y.astype(float)]))
        np.savez(  # the raw held-apart scores, to compare calibrations (plot_grounding.py)
            cfg.cache_dir / "oof-raw.npz",
            raw=oof,
            y=yf,
            weight=cal_w,
            lex_pass=lex_pass,
            # the lexical verdict apart and its score (`stacking.compare`; session 16)
            lex_supported=x[:, names.index("lex_supported")] > 0 if cfg.lexical_view else lex_pass,
            lex_score=x[:, names.index("lex_score")] if cfg.lexical_view else np.zeros(len(pairs)),
            fold=folds,
            group=np.array([p.group for p in pairs]),
            in_domain=inside,
        )
    return summary
