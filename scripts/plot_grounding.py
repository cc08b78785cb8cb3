"""Reliability diagram and per-dataset ROC curves of the grounding verifiers' scores.

    pip install -e '.[train]'     # matplotlib
    python scripts/plot_grounding.py grounding-dev.jsonl [--part test] [--out docs/img]

Scores every labelled claim of the chosen half with the learned and the lexical verifier
(the report's `score`, P(supported)) and writes `grounding-reliability.png` (observed
share of supported claims against the predicted probability, ten equal-width bins, per
dataset family and pooled, with the claim count per bin) and `grounding-roc.png` (one
panel per dataset, both verifiers, AUC in the legend). Prints the numbers it plots, and
per dataset the best balanced accuracy any single threshold on each score reaches: the
score's ceiling there, whatever the threshold or calibration, and each score's expected
calibration error (ECE, ten equal-width bins) with its reliability per bin.
`--learned-model FILE` reads another model file than the packaged one.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding.calibration import expected_calibration_error
from groundwire.guards.grounding.evaluation import Example, load_examples
from groundwire.guards.grounding.learned import LearnedVerifier
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.protocols import GroundingRequest

OUT = Path(__file__).resolve().parents[1] / "docs" / "img"


def scores(verifier: LexicalVerifier, examples: list[Example]) -> np.ndarray:
    reqs = [GroundingRequest(e.claim, e.claim.source_turns) for e in examples]
    if isinstance(verifier, LearnedVerifier):
        reports = verifier.verify_many(reqs)
    else:
        reports = [verifier.verify_one(r) for r in reqs]
    return np.array([r.score if r.score is not None else np.nan for r in reports])


def roc(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    order = np.argsort(-s, kind="mergesort")
    ys = y[order]
    tps = np.r_[0, np.cumsum(ys)]
    fps = np.r_[0, np.cumsum(~ys)]
    tpr, fpr = tps / max(1, ys.sum()), fps / max(1, (~ys).sum())
    # AUC as the probability a supported claim outscores an unsupported one (ties half)
    pos, neg = s[y], s[~y]
    auc = float((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean())
    return fpr, tpr, auc


def best_balanced_accuracy(y: np.ndarray, s: np.ndarray) -> float:
    """The highest balanced accuracy any one threshold on `s` reaches (`s >= t` predicts
    supported), read on the data itself: a ceiling of the score for that dataset, not
    something a fixed threshold achieves. When it is below a target, no threshold or
    calibration of this score reaches the target; only a better score can."""
    pos, neg = max(1, int(y.sum())), max(1, int((~y).sum()))
    order = np.argsort(-s, kind="mergesort")
    ss, ys = s[order], y[order]
    tp, fp = np.cumsum(ys), np.cumsum(~ys)
    # a threshold can only fall between distinct scores: keep each tie group's last row
    last = np.r_[ss[1:] != ss[:-1], True]
    ba = (tp[last] / pos + 1 - fp[last] / neg) / 2
    return float(max(0.5, ba.max(initial=0.5)))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--part", default="test", choices=("test", "fit", "all"))
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--learned-model", type=Path, help="model file (default: the packaged one)")
    args = ap.parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    examples = load_examples(args.data, args.part)
    y = np.array([e.supported for e in examples])
    ds = np.array([e.dataset for e in examples])
    cfg = GroundingConfig(verifier="learned", learned_model_path=args.learned_model)
    learned = scores(LearnedVerifier(cfg), examples)
    lexical = scores(LexicalVerifier(GroundingConfig()), examples)
    args.out.mkdir(parents=True, exist_ok=True)

    # reliability: pooled and per family
    families: dict[str, np.ndarray] = {"all datasets": np.ones(len(y), bool)}
    for fam in ("begin", "faithdial", "summedits"):
        families[fam] = np.char.startswith(ds.astype(str), fam)
    bins = np.linspace(0, 1, 11)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
    for ax, (name, s) in zip(axes, (("learned", learned), ("lexical", lexical)), strict=True):
        ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--", label="perfect calibration")
        for fam, mask in families.items():
            idx = np.clip(np.digitize(s[mask], bins) - 1, 0, 9)
            xs, obs, ns = [], [], []
            for b in range(10):
                k = idx == b
                if k.sum() >= 5:
                    xs.append(s[mask][k].mean())
                    obs.append(y[mask][k].mean())
                    ns.append(int(k.sum()))
            ax.plot(xs, obs, marker="o", lw=2 if fam == "all datasets" else 1, label=fam)
            print(
                f"reliability {name} {fam}: "
                + ", ".join(
                    f"{x:.2f}->{o:.2f} (n={n})" for x, o, n in zip(xs, obs, ns, strict=True)
                )
            )
        ax.set_title(f"{name}: observed share supported per score bin ({args.part} half)")
        ax.set_xlabel("score = predicted P(supported)")
        ax.set_ylabel("observed share supported")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(args.out / "grounding-reliability.png", dpi=110)
    plt.close(fig)

    names = sorted(set(ds))
    cols = 4
    rows = (len(names) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.8 * rows))
    flat = np.atleast_1d(axes).ravel()
    aucs: dict[str, dict[str, float]] = defaultdict(dict)
    for ax, name in zip(flat, names, strict=False):
        k = ds == name
        for label, s in (("learned", learned), ("lexical", lexical)):
            fpr, tpr, auc = roc(y[k], np.nan_to_num(s[k]))
            aucs[name][label] = auc
            aucs[name][label + " best"] = best_balanced_accuracy(y[k], np.nan_to_num(s[k]))
            ax.plot(fpr, tpr, label=f"{label} AUC {auc:.3f}")
        ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--")
        ax.set_title(f"{name} (n={int(k.sum())})", fontsize=10)
        ax.set_xlabel("false positive rate")
        ax.set_ylabel("true positive rate")
        ax.legend(fontsize=8, loc="lower right")
    for ax in flat[len(names) :]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(args.out / "grounding-roc.png", dpi=100)
    plt.close(fig)
    for name in names:
        a = aucs[name]
        print(
            f"AUC {name:<20} learned {a['learned']:.3f}  lexical {a['lexical']:.3f}   "
            f"best one-threshold balanced accuracy learned {a['learned best']:.3f}  "
            f"lexical {a['lexical best']:.3f}"
        )
    for name in names:
        k = ds == name
        for label, s in (("learned", learned), ("lexical", lexical)):
            ok = k & ~np.isnan(s)
            idx = np.clip((s[ok] * 10).astype(int), 0, 9)
            cells = ", ".join(
                f"{s[ok][idx == b].mean():.2f}->{y[ok][idx == b].mean():.2f} (n={(idx == b).sum()})"
                for b in range(10)
                if (idx == b).any()
            )
            ece = expected_calibration_error(s[ok], y[ok])
            print(f"ECE {name:<20} {label:<8} {ece:.3f}   {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
