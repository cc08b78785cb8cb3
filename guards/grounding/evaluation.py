"""Grounding quality on labelled data, beside a word-overlap baseline, and the fits.

A claim counts as "predicted supported" iff the pipeline would NOT block it on grounding
(`grounding_blocks`: NOT_SUPPORTED blocks, PARTIAL blocks under
`min_confidence_after_penalty`, UNKNOWN blocks only with on_verifier_failure=block). The
score is balanced accuracy per dataset (mean recall of both labels), never pooled, because
the datasets differ in label balance and in how hard they are.

The file is split deterministically by sha1(claim_id): the even half is the "fit" part
(the lexical weights were fitted on it with `--fit`), the odd half the "test" part that
the reported numbers come from. `--fit` refits on the fit part and prints the weights to
paste into `guards/grounding/lexical/`; it never writes code itself. For the embedding
verifier it also fits the claim direction, written as data with `--save-direction PATH`.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import orjson

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import build_verifier, grounding_blocks, verify_batch_safely
from groundwire.guards.grounding.embedding import EmbeddingVerifier
from groundwire.guards.grounding.lexical import (
    LexicalVerifier,
    analyze,
    known_names,
    tokenize,
)
from groundwire.guards.protocols import GroundingRequest
from groundwire.topics.records import Claim

BASELINE_THRESHOLD = 0.51
# Claim direction (embedding verifier): the claim vectors' top principal components and
# their L2 penalty, both chosen by 5-fold cross-validation within the fit part (folds
# grouped by source text, cell-weighted log-loss); the test part was not used.
DIRECTION_DIMS = 16
DIRECTION_L2 = 0.03
SCALAR_L2 = 1e-3
MAX_LINE_BYTES = 1_000_000
Part = Literal["fit", "test", "all"]


@dataclass(frozen=True, slots=True)
class Example:
    claim: Claim
    supported: bool
    dataset: str


def part_of(claim_id: str) -> Literal["fit", "test"]:
    """Deterministic half: even first byte of sha1(claim_id) -> fit, odd -> test."""
    return "fit" if hashlib.sha1(claim_id.encode()).digest()[0] % 2 == 0 else "test"


def load_examples(path: Path, part: Part = "all") -> list[Example]:
    out: list[Example] = []
    with path.open("rb") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            if len(line) > MAX_LINE_BYTES:
                raise ValueError(f"line {lineno} is larger than {MAX_LINE_BYTES} bytes")
            row = orjson.loads(line)
            label = row.get("label")
            if label not in ("supported", "not_supported"):
                continue
            claim = Claim.model_validate(row)
            if part != "all" and part_of(claim.claim_id) != part:
                continue
            out.append(Example(claim, label == "supported", str(row.get("dataset", "all"))))
    return out


def baseline_supported(claim: Claim) -> bool:
    """Reference: fraction of claim content words found in the sources >= 0.51."""
    words = {t.low for t in tokenize(claim.content) if t.content}
    if not words:
        return True
    source = {t.low for turn in claim.source_turns for t in tokenize(turn.text)}
    return len(words & source) / len(words) >= BASELINE_THRESHOLD


def balanced_accuracy(pairs: Iterable[tuple[bool, bool]]) -> float:
    """Mean of recall on supported and recall on not_supported; (gold, predicted) pairs."""
    hit = {True: 0, False: 0}
    total = {True: 0, False: 0}
    for gold, pred in pairs:
        total[gold] += 1
        hit[gold] += gold == pred
    recalls = [hit[k] / total[k] for k in (True, False) if total[k]]
    return sum(recalls) / len(recalls) if recalls else float("nan")


async def predict_columns(
    examples: Sequence[Example], cfg: GroundingConfig
) -> dict[str, list[bool]]:
    """Predicted supported per verifier name: the configured verifier, and for an
    ensemble each member too (members first, the ensemble last), from one run."""
    from groundwire.guards.grounding.ensemble import EnsembleVerifier

    verifier = build_verifier(cfg)
    cols: dict[str, list[bool]] = defaultdict(list)
    batch = 64
    try:
        for i in range(0, len(examples), batch):
            chunk = examples[i : i + batch]
            reqs = [GroundingRequest(e.claim, e.claim.source_turns) for e in chunk]
            if isinstance(verifier, EnsembleVerifier):
                reports, members = await verifier.verify_members(reqs)
                for name, rs in members.items():
                    cols[name].extend(not grounding_blocks(r, cfg) for r in rs)
            else:
                reports = await verify_batch_safely(verifier, reqs)
            cols[verifier.name].extend(not grounding_blocks(r, cfg) for r in reports)
    finally:
        close = getattr(verifier, "aclose", None)
        if close is not None:
            await close()
    return dict(cols)


async def predict(examples: Sequence[Example], cfg: GroundingConfig) -> list[bool]:
    cols = await predict_columns(examples, cfg)
    return list(cols.values())[-1]


def feature_matrix(examples: Sequence[Example], verifier: LexicalVerifier) -> np.ndarray:
    rows = []
    names = verifier.feature_names
    for e in examples:
        turns = e.claim.source_turns
        a = analyze(e.claim.content, turns, known_names(e.claim, turns))
        a.features.update(verifier.extra_features(e.claim.content, turns))
        rows.append([a.features[n] for n in names])
    return np.array(rows, dtype=np.float64)


def fit_logistic(
    x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float | np.ndarray = SCALAR_L2
) -> tuple[np.ndarray, float]:
    """Weighted, L2-regularised logistic regression by Newton's method (IRLS).

    Features are standardised for the solve and the weights mapped back, so the printed
    weights apply to raw features. A few dozen features and ~1k rows: exact and instant.
    `l2` is one penalty for all features or one per feature (on the standardised scale).
    """
    mu = x.mean(axis=0)
    sd = x.std(axis=0)
    sd[sd == 0] = 1.0
    z = np.hstack([(x - mu) / sd, np.ones((len(x), 1))])
    w = w / w.mean()
    theta = np.zeros(z.shape[1])
    penalty = np.broadcast_to(np.asarray(l2, dtype=np.float64), (x.shape[1],))
    reg = np.diag(np.append(penalty, 0.0)) * len(x)
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ theta, -30, 30)))
        grad = z.T @ ((p - y) * w) + reg @ theta
        hess = (z * (w * p * (1 - p))[:, None]).T @ z + reg
        step = np.linalg.solve(hess, grad)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    coef = theta[:-1] / sd
    bias = float(theta[-1] - (coef * mu).sum())
    return coef, bias


def fit_with_direction(
    x: np.ndarray,
    vectors: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    dims: int = DIRECTION_DIMS,
    l2: float = DIRECTION_L2,
) -> tuple[np.ndarray, float, np.ndarray, float]:
    """Logistic regression over `x` plus the top `dims` principal components of `vectors`.

    The components' weights fold into one direction in vector space, so the verifier
    needs a single dot product: score = x @ coef + scale * (v @ direction) + bias.
    Returns (coef, scale, unit direction, bias).
    """
    mu = vectors.mean(axis=0)
    _, _, vt = np.linalg.svd(vectors - mu, full_matrices=False)
    proj = vt[:dims].T
    z = (vectors - mu) @ proj
    l2s = np.r_[np.full(x.shape[1], SCALAR_L2), np.full(z.shape[1], l2)]
    coef, bias = fit_logistic(np.hstack([x, z]), y, w, l2s)
    d = proj @ coef[x.shape[1] :]
    bias -= float(mu @ d)
    scale = float(np.linalg.norm(d))
    direction = d / scale if scale > 0 else d
    return coef[: x.shape[1]], scale, direction, bias


def _best_threshold(scores: np.ndarray, y: np.ndarray, groups: Sequence[str]) -> float:
    """Threshold maximising the mean per-dataset balanced accuracy on the fit part."""
    best_t, best_v = 0.5, -1.0
    for t in np.linspace(0.05, 0.95, 91):
        by: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
        for s, gold, g in zip(scores, y, groups, strict=True):
            by[g].append((bool(gold), bool(s >= t)))
        v = float(np.mean([balanced_accuracy(p) for p in by.values()]))
        if v > best_v:
            best_t, best_v = float(t), v
    return best_t


def direction_matrix(
    examples: Sequence[Example], verifier: EmbeddingVerifier
) -> tuple[np.ndarray, np.ndarray]:
    """Embedding verifier's features without the claim direction, and the claim vectors."""
    names = [n for n in verifier.feature_names if n != "embed_claim_direction"]
    rows, vectors = [], []
    for e in examples:
        turns = e.claim.source_turns
        a = analyze(e.claim.content, turns, known_names(e.claim, turns))
        extra, vector = verifier.vector_features(e.claim.content, turns)
        a.features.update(extra)
        rows.append([a.features[n] for n in names])
        vectors.append(vector)
    return np.array(rows, dtype=np.float64), np.array(vectors, dtype=np.float64)


@dataclass(frozen=True, slots=True)
class FitResult:
    """Fitted weights over `feature_names`, to be pasted into the verifier's model module
    (code is never written by the fit itself)."""

    verifier: str
    examples: int
    feature_names: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float
    partial_threshold: float
    supported_threshold: float
    direction_saved_to: Path | None = None

    def as_python(self) -> str:
        names = self.feature_names
        lines = [
            f"# fitted on the fit part: {self.examples} claims, verifier={self.verifier}",
            "WEIGHTS = (",
            *(f"    {v:.4f},  # {n}" for n, v in zip(names, self.weights, strict=True)),
            ")",
            f"BIAS = {self.bias:.4f}",
            f"PARTIAL_THRESHOLD = {self.partial_threshold:.2f}",
            f"SUPPORTED_THRESHOLD = {self.supported_threshold:.2f}",
        ]
        return "\n".join(lines) + "\n"


def fit(path: Path, cfg: GroundingConfig, save_direction: Path | None = None) -> FitResult:
    """Refit the lexical (or embedding) verifier's weights on the fit part of `path`."""
    verifier = build_verifier(cfg)
    if not isinstance(verifier, LexicalVerifier):
        raise ValueError("fitting applies to the lexical and embedding verifiers")
    if save_direction is not None and not isinstance(verifier, EmbeddingVerifier):
        raise ValueError("saving a claim direction applies to the embedding verifier")
    examples = load_examples(path, "fit")
    if not examples:
        raise ValueError(f"no labelled claims in the fit part of {path}")
    y = np.array([e.supported for e in examples], dtype=np.float64)
    counts: dict[tuple[str, bool], int] = defaultdict(int)
    for e in examples:
        counts[(e.dataset, e.supported)] += 1
    # Every (dataset, label) cell weighs the same: the target is per-dataset balanced accuracy.
    w = np.array([1.0 / counts[(e.dataset, e.supported)] for e in examples])
    if isinstance(verifier, EmbeddingVerifier):
        x, vectors = direction_matrix(examples, verifier)
        coef, scale, direction, b = fit_with_direction(x, vectors, y, w)
        theta = np.append(coef, scale)
        x = np.hstack([x, (vectors @ direction)[:, None]])
        if save_direction is not None:
            np.save(save_direction, direction.astype("<f8"), allow_pickle=False)
    else:
        x = feature_matrix(examples, verifier)
        theta, b = fit_logistic(x, y, w)
    scores = 1.0 / (1.0 + np.exp(-(x @ theta + b)))
    t = _best_threshold(scores, y, [e.dataset for e in examples])
    return FitResult(
        verifier=verifier.name,
        examples=len(examples),
        feature_names=tuple(verifier.feature_names),
        weights=tuple(float(v) for v in theta),
        bias=float(b),
        partial_threshold=t,
        supported_threshold=min(0.95, (t + 1.0) / 2),
        direction_saved_to=save_direction,
    )


def evaluate_columns(
    path: Path, cfg: GroundingConfig, part: Part = "test"
) -> tuple[list[str], dict[str, tuple[int, float, dict[str, float]]]]:
    """Per dataset: (claims, baseline balanced accuracy, {verifier: balanced accuracy}),
    with a column for each ensemble member beside the ensemble."""
    examples = load_examples(path, part)
    if not examples:
        raise ValueError(f"no labelled claims in {path} (part={part})")
    cols = asyncio.run(predict_columns(examples, cfg))
    by: dict[str, list[int]] = defaultdict(list)
    for i, e in enumerate(examples):
        by[e.dataset].append(i)
    results: dict[str, tuple[int, float, dict[str, float]]] = {}
    for ds in sorted(by):
        rows = by[ds]
        base = balanced_accuracy(
            (examples[i].supported, baseline_supported(examples[i].claim)) for i in rows
        )
        mine = {
            name: balanced_accuracy((examples[i].supported, preds[i]) for i in rows)
            for name, preds in cols.items()
        }
        results[ds] = (len(rows), base, mine)
    return list(cols), results


def evaluate(
    path: Path, cfg: GroundingConfig, part: Part = "test"
) -> dict[str, tuple[int, float, float]]:
    """Per dataset: (claims, baseline balanced accuracy, verifier balanced accuracy)."""
    names, results = evaluate_columns(path, cfg, part)
    return {ds: (n, base, mine[names[-1]]) for ds, (n, base, mine) in results.items()}
