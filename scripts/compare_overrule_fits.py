"""Compare fits of the stacked overrule's trees nested out of fold (docs/grounding.md, Session 18).

    python scripts/train_grounding.py --summedits data --dev grounding-dev.jsonl \\
        --lexical-view --stack --depth 2 --trees 150 --out /tmp/m.json --cache /tmp/c
    python scripts/compare_overrule_fits.py --summedits data --dev grounding-dev.jsonl \\
        --cache /tmp/c --partitions 5

The same pool as the packaged model (SummEdits' five training domains and the dev file's
fit half; its features are read from the training cache). For each fit
(`guards/grounding/overrule_fits.py`) and each fold partition (partition 0 is the
training's own), the held-apart raw scores are read by `stacking.compare`: each rule's
settings chosen on four folds and read on the fifth. Printed: per partition, the nested
mean balanced accuracy over the 11 in-domain groups minus the lexical verdict's alone, and
per family (BEGIN, FaithDial, SummEdits); then the mean over partitions. Nothing reads the
test half.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from groundwire.guards.grounding import training as tr
from groundwire.guards.grounding.learned.features import FEATURES
from groundwire.guards.grounding.learned.lexical_view import VIEW
from groundwire.guards.grounding.overrule_fits import (
    CANDIDATE_FEATURES,
    FitVariant,
    candidate_features,
    held_apart_raw,
    salted_folds,
    short_claims_rule,
)
from groundwire.guards.grounding.stacking import RULES, Rows, compare

# name: (fit, with the candidate features, rules read on its scores)
FITS: dict[str, tuple[FitVariant, bool, tuple[str, ...]]] = {
    "gbt, all rows (packaged kind)": (FitVariant(), False, ("one bound", "short claims")),
    "gbt, SummEdits x0.3": (FitVariant(summedits_weight=0.3), False, ("one bound",)),
    "gbt, dialogue rows only": (FitVariant(train_on="dialogue"), False, ("one bound",)),
    "hgb, all rows": (FitVariant("hgb"), False, ("one bound",)),
    "hgb monotone, all rows": (FitVariant("hgb-monotone"), False, ("one bound", "short claims")),
    "hgb monotone, dialogue rows": (
        FitVariant("hgb-monotone", train_on="dialogue"),
        False,
        ("one bound",),
    ),
    "hgb monotone + 3 candidate features": (
        FitVariant("hgb-monotone"),
        True,
        ("one bound", "short claims"),
    ),
}
FAMILIES = ("begin", "faithdial", "summedits")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--summedits", type=Path, required=True)
    ap.add_argument("--dev", type=Path, required=True)
    ap.add_argument("--cache", type=Path, required=True, help="the training's cache directory")
    ap.add_argument("--partitions", type=int, default=5, help="fold partitions (salts)")
    ap.add_argument("--only", action="append", help="a fit's name (repeatable)")
    args = ap.parse_args(argv)
    cfg = tr.TrainConfig(
        summedits_dir=args.summedits,
        dev_file=args.dev,
        lexical_view=True,
        cache_dir=args.cache,
        log=lambda *a: None,
    )
    pairs = tr.load_summedits(args.summedits, cfg.summedits_domains) + tr.load_dev_fit(
        args.dev, cfg.exclude_dev
    )
    names = (*FEATURES, *VIEW)
    x = tr.cached_matrix(pairs, cfg, names, embedding=False)
    extra = np.array(
        [candidate_features(p.claim, [t for _, t in p.turns] or [p.source]) for p in pairs]
    )
    y = np.array([p.supported for p in pairs])
    groups = np.array([p.group for p in pairs])
    inside = np.array([p.in_domain for p in pairs])
    sup = x[:, names.index("lex_supported")] > 0
    passing = sup | (x[:, names.index("lex_partial")] > 0)
    weight, cal_weight = tr.group_weights(pairs), tr.natural_weights(pairs)
    rules = {
        "one bound": RULES["single bound (shipped)"],
        "short claims": short_claims_rule(x[:, names.index("claim_len_log")]),
    }
    fits = {k: v for k, v in FITS.items() if not args.only or k in args.only}
    totals: dict[str, list[list[float]]] = {}
    for salt in range(args.partitions):
        folds = salted_folds([p.doc_key for p in pairs], cfg.folds, salt)
        for fit_name, (variant, with_extra, rule_names) in fits.items():
            xs = np.hstack([x, extra]) if with_extra else x
            cols = (*names, *CANDIDATE_FEATURES) if with_extra else names
            raw = held_apart_raw(variant, xs, y, weight, folds, groups, cols)
            rows = Rows(
                raw=raw,
                y=y,
                weight=cal_weight,
                lex_supported=sup,
                lex_partial=passing & ~sup,
                lex_score=x[:, names.index("lex_score")],
                fold=folds,
                group=groups,
                in_domain=inside,
            )
            result = compare(rows, {r: rules[r] for r in rule_names})
            lex = result["lexical"]
            for r in rule_names:
                o = result[r]
                fam = [
                    float(
                        np.mean([o.nested[g] - lex.nested[g] for g in o.nested if g.startswith(f)])
                    )
                    for f in FAMILIES
                ]
                d = o.nested_mean - lex.nested_mean
                key = f"{fit_name}; {r}"
                totals.setdefault(key, []).append([d, *fam])
                print(
                    f"partition {salt} {key:<52} lexical {lex.nested_mean:.4f} "
                    f"nested {o.nested_mean:.4f} ({d:+.4f})  BEGIN {fam[0]:+.4f} "
                    f"FaithDial {fam[1]:+.4f} SummEdits {fam[2]:+.4f}",
                    flush=True,
                )
    print(f"\nmean over {args.partitions} partitions, nested minus the lexical verdict alone:")
    for key, vals in totals.items():
        v = np.array(vals)
        print(
            f"{key:<52} {v[:, 0].mean():+.4f} (min {v[:, 0].min():+.4f}, max "
            f"{v[:, 0].max():+.4f})  BEGIN {v[:, 1].mean():+.4f} FaithDial "
            f"{v[:, 2].mean():+.4f} SummEdits {v[:, 3].mean():+.4f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
