"""Compare the learned verifier's stacking rules out of fold (docs/grounding.md, Session 16).

    python scripts/train_grounding.py --summedits data --dev grounding-dev.jsonl \\
        --lexical-view --stack --depth 2 --trees 150 --out /tmp/m.json --cache /tmp/c
    python scripts/compare_stacking.py /tmp/c

Reads the held-apart scores the training leaves in its cache (`oof-raw.npz`) and prints,
per rule (`guards/grounding/stacking.py`), the balanced accuracy averaged over the
in-domain groups with the rule's settings chosen on the other folds (nested) and on every
fold (in-sample, as `train_grounding.py` reports it), then each group's nested figure.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from groundwire.guards.grounding.stacking import Rows, compare


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cache", type=Path, help="the training cache directory (oof-raw.npz)")
    args = ap.parse_args(argv)
    d = np.load(args.cache / "oof-raw.npz")
    if "lex_supported" not in d:
        print("oof-raw.npz predates session 16: train again with --lexical-view", file=sys.stderr)
        return 2
    lex_pass = d["lex_pass"].astype(bool)
    sup = d["lex_supported"].astype(bool)
    rows = Rows(
        raw=d["raw"],
        y=d["y"].astype(bool),
        weight=d["weight"],
        lex_supported=sup,
        lex_partial=lex_pass & ~sup,
        lex_score=d["lex_score"],
        fold=d["fold"],
        group=d["group"],
        in_domain=d["in_domain"].astype(bool),
    )
    result = compare(rows)
    groups = list(result["lexical"].nested)
    print(
        f"{'rule':<30} {'nested':>7} {'in-sample':>9}  settings  "
        + " ".join(g[:12] for g in groups)
    )
    for name, o in result.items():
        per = " ".join(f"{o.nested[g]:>12.3f}" for g in groups)
        print(f"{name:<30} {o.nested_mean:7.4f} {o.in_sample_mean:9.4f}  {o.settings}  {per}")
        if o.per_fold:
            print(f"{'':<30} settings without each fold: {list(o.per_fold)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
