"""Train the learned grounding verifier and write guards/grounding/data/learned.json.

    pip install -e '.[train]'
    python scripts/train_grounding.py --docnli DIR --summedits DIR --dev grounding-dev.jsonl

`--docnli DIR` holds DocNLI's binary MNLI / FEVER files (`binary-MNLI_dev.txt`,
`binary-MNLI_test.txt`, `binary-FEVER-NLI_dev.txt`, `binary-FEVER-NLI_test.txt`, or the
repository's own `binary-MNLI/dev.txt` layout), `--summedits DIR` the SummEdits JSON
files of salesforce/factualNLG (`summedits_<domain>.json`), `--dev` the labelled
development file (only its fit half is read). docs/grounding.md says where each comes
from and under which licence. `--embedding` also fits the model with the packaged
sentence encoder's signals (`learned-embedding.json`; needs the `embedding` extra and
about 25 ms per pair). `--lexical-view` adds the lexical verifier's own judgement as
features (`learned/lexical_view.py`; not in the shipped model: see docs/grounding.md).
Reproducible: fixed seed, folds by a hash of the document.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from groundwire.guards.grounding.calibration import CANDIDATES
from groundwire.guards.grounding.training import DEFAULT_SUMMEDITS, TrainConfig, train

PACKAGE_DATA = Path(__file__).resolve().parents[1] / "guards" / "grounding" / "data"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docnli", type=Path, help="directory of DocNLI binary MNLI/FEVER files")
    ap.add_argument("--summedits", type=Path, help="directory of summedits_<domain>.json")
    ap.add_argument("--domains", default=",".join(DEFAULT_SUMMEDITS), help="SummEdits domains")
    ap.add_argument("--dev", type=Path, help="labelled development JSONL (fit half only)")
    ap.add_argument("--embedding", action="store_true", help="add the embedding signals")
    ap.add_argument(
        "--lexical-view",
        action="store_true",
        help="add the lexical verifier's own judgement as features (learned/lexical_view.py)",
    )
    ap.add_argument(
        "--stack",
        action="store_true",
        help="stack on the lexical verdict: overrule it only under a learned score bound "
        "chosen out of fold (needs --lexical-view)",
    )
    ap.add_argument("--out", type=Path, help="model file (default: the packaged one)")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "groundwire-train")
    ap.add_argument("--trees", type=int, default=300)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--learning-rate", type=float, default=0.05)
    ap.add_argument(
        "--in-domain-weight",
        type=float,
        default=1.0,
        help="weight of the in-domain groups' rows against DocNLI's (1: each group the same)",
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--calibration",
        default="auto",
        choices=("auto", *CANDIDATES),
        help="form of the score's calibration; auto: the lowest cross-fitted log loss",
    )
    ap.add_argument(
        "--keep-trees",
        type=Path,
        help="a model file whose trees are kept: only its calibration is fitted again "
        "(and its overrule bound carried to the new scale, so no verdict changes)",
    )
    args = ap.parse_args(argv)
    name = "learned-embedding.json" if args.embedding else "learned.json"
    cfg = TrainConfig(
        docnli_dir=args.docnli,
        summedits_dir=args.summedits,
        summedits_domains=tuple(d for d in args.domains.split(",") if d),
        dev_file=args.dev,
        embedding=args.embedding,
        lexical_view=args.lexical_view,
        stack=args.stack,
        trees=args.trees,
        depth=args.depth,
        learning_rate=args.learning_rate,
        in_domain_weight=args.in_domain_weight,
        workers=args.workers,
        cache_dir=args.cache,
        calibration=args.calibration,
        keep_trees=args.keep_trees,
    )
    summary = train(cfg, args.out or PACKAGE_DATA / name)
    print(json.dumps(summary["held_apart_balanced_accuracy"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
