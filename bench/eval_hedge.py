"""Measure the hedge detector on sentences annotated for speculation (`--data PATH`).

Recall is over sentences whose cues are epistemic (`epistemic: true`): did the detector
flag the sentence at all (block or review)? The false-positive rate is over sentences the
annotators marked with no speculation cue (`label: certain`). Sentences with only
conditional/alternative cues ("if", "or") are in neither set.

Columns: FP any = any flag; FP spec = flagged by something other than an approximator or
a frequency adverb; FP blk = would block; FP seed = flagged ONLY by those two
review-only categories of docs/spec.md §Hedges (FP any - FP spec), which the corpus never
annotates as speculation.

The figures in the docs come from the SFU Review Corpus speculation annotations (see
bench/data/README.md for where that data comes from); without `--data` the script runs
on the small synthetic sample in bench/data/.

The word lists were written from the linguistics of hedging; while developing them only
the BOOKS and CARS reviews were inspected ("fit"), so COOKWARE and MUSIC ("held-out") are
the honest figure (on the SFU corpus). Usage:

    python bench/eval_hedge.py [--data PATH] [--show-misses N]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

from groundwire.guards.hedge import HedgeCategory, HedgeDetector

DEFAULT_DATA = Path(__file__).resolve().parent / "data" / "hedge-sample.jsonl"
FIT = {"BOOKS", "CARS"}
FREQUENCY = re.compile(r"^(?:typically|usually|often|generally|normally|tends? to|in most cases)$")


def evaluate(rows: list[dict], detector: HedgeDetector) -> dict[str, float | int]:
    epi = [r for r in rows if r.get("epistemic")]
    certain = [r for r in rows if r.get("label") == "certain"]
    actions = Counter(detector.analyze(r["content"]).action for r in epi)
    fp = sum(1 for r in certain if detector.analyze(r["content"]).action != "none")
    # The corpus annotates speculation only; approximators ("about 300 pages") and
    # frequency adverbs ("usually") are review hedges (spec: Hedges) it never marks. Count the
    # false positives that remain when those two kinds of hit are set aside, too.
    fp_spec = sum(1 for r in certain if _speculative_hits(detector, r["content"]))
    fp_block = sum(1 for r in certain if detector.analyze(r["content"]).action == "block")
    # Flagged ONLY by the review hedges the spec requires (approximators, frequency
    # adverbs): the part of "FP any" no detector following docs/spec.md §Hedges can remove.
    fp_seed = sum(
        1
        for r in certain
        if detector.analyze(r["content"]).action != "none"
        and not _speculative_hits(detector, r["content"])
    )
    detected = actions["block"] + actions["review"]
    return {
        "epistemic": len(epi),
        "recall": detected / len(epi) if epi else 0.0,
        "recall_block": actions["block"] / len(epi) if epi else 0.0,
        "recall_review": actions["review"] / len(epi) if epi else 0.0,
        "certain": len(certain),
        "false_positives": fp,
        "fp_rate": fp / len(certain) if certain else 0.0,
        "fp_rate_speculation": fp_spec / len(certain) if certain else 0.0,
        "fp_rate_block": fp_block / len(certain) if certain else 0.0,
        "fp_rate_seed_mandated": fp_seed / len(certain) if certain else 0.0,
    }


def _speculative_hits(detector: HedgeDetector, text: str) -> bool:
    return any(
        h.category is not HedgeCategory.APPROXIMATION and not FREQUENCY.match(h.text.lower())
        for h in detector.hits(text)
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help="JSONL of annotated sentences (default: the synthetic sample in bench/data/)",
    )
    ap.add_argument("--show-misses", type=int, default=0, help="print N fit-split errors")
    args = ap.parse_args()
    if not args.data.is_file():
        ap.error(f"--data {args.data}: no such file (see bench/data/README.md)")
    with args.data.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    detector = HedgeDetector()
    splits = {
        "fit (BOOKS+CARS)": [r for r in rows if r["category"] in FIT],
        "held-out (COOKWARE+MUSIC)": [r for r in rows if r["category"] not in FIT],
        "all": rows,
    }
    print(
        f"{'split':28} {'n_epi':>6} {'recall':>7} {'block':>6} {'review':>6} "
        f"{'n_cert':>6} {'FP':>4} {'FP any':>7} {'FP spec':>7} {'FP blk':>7} {'FP seed':>7}"
    )
    for name, part in splits.items():
        m = evaluate(part, detector)
        print(
            f"{name:28} {m['epistemic']:>6} {m['recall']:>7.3f} {m['recall_block']:>6.3f} "
            f"{m['recall_review']:>6.3f} {m['certain']:>6} {m['false_positives']:>4} "
            f"{m['fp_rate']:>7.4f} {m['fp_rate_speculation']:>7.4f} {m['fp_rate_block']:>7.4f} "
            f"{m['fp_rate_seed_mandated']:>7.4f}"
        )
    if args.show_misses:
        fit = splits["fit (BOOKS+CARS)"]
        print("\n-- fit split: missed epistemic --")
        misses = [
            r for r in fit if r.get("epistemic") and detector.analyze(r["content"]).action == "none"
        ]
        for r in misses[: args.show_misses]:
            print(r["cues"], "|", r["content"][:160])
        print("\n-- fit split: false positives --")
        fps = [
            r
            for r in fit
            if r["label"] == "certain" and detector.analyze(r["content"]).action != "none"
        ]
        for r in fps[: args.show_misses]:
            print(detector.analyze(r["content"]).words, "|", r["content"][:160])
    m = evaluate(rows, detector)
    print(
        f"hedge_recall={m['recall']:.3f} hedge_fp_rate={m['fp_rate']:.4f} "
        f"hedge_fp_rate_speculation={m['fp_rate_speculation']:.4f} "
        f"hedge_fp_rate_block={m['fp_rate_block']:.4f}"
    )


if __name__ == "__main__":
    main()
