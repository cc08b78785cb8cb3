"""List the claims a verifier gets wrong on one part of a labelled file, with verdict and
reasoning, so error analysis reads the fit half claim by claim (never the test half).

    python bench/list_grounding_errors.py /work/shared/data/grounding-dev.jsonl \
        --dataset summedits-samsum [--part fit] [--verifier lexical] [--all]

`groundwire eval` prints balanced accuracy only; this prints, per misclassified claim,
its id, label, verdict, score, reasoning, the claim and (with --source) the source.
With --all every claim of the dataset is listed, right or wrong (marked).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import build_verifier, grounding_blocks
from groundwire.guards.grounding.evaluation import load_examples
from groundwire.guards.protocols import GroundingRequest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("data", type=Path)
    ap.add_argument("--dataset", default=None, help="dataset name (default: every dataset)")
    ap.add_argument("--part", default="fit", choices=("fit", "test", "all"))
    ap.add_argument("--verifier", default="lexical")
    ap.add_argument("--all", action="store_true", help="list right answers too")
    ap.add_argument("--source", action="store_true", help="print each claim's source")
    args = ap.parse_args(argv)
    if args.part != "fit":
        print("warning: read errors on the fit half only", file=sys.stderr)
    cfg = GroundingConfig().model_copy(update={"verifier": args.verifier})
    examples = [e for e in load_examples(args.data, args.part) if args.dataset in (None, e.dataset)]
    verifier = build_verifier(cfg)
    reqs = [GroundingRequest(e.claim, e.claim.source_turns) for e in examples]
    reports = asyncio.run(verifier.verify_batch(reqs))
    wrong = {True: 0, False: 0}
    for e, r in zip(examples, reports, strict=True):
        predicted = not grounding_blocks(r, cfg)
        right = predicted == e.supported
        if not right:
            wrong[e.supported] += 1
        if right and not args.all:
            continue
        label = "SUP" if e.supported else "NOT"
        mark = "ok " if right else "ERR"
        score = "-" if r.score is None else f"{r.score:.3f}"
        print(f"{mark} {e.claim.claim_id} label={label} verdict={r.verdict.value} score={score}")
        print(f"    claim: {e.claim.content}")
        print(f"    why:   {r.reasoning}")
        if args.source:
            for t in e.claim.source_turns:
                print(f"    src:   {t.text}")
    print(
        f"# {len(examples)} claims; supported blocked: {wrong[True]}; "
        f"not supported let through: {wrong[False]}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
