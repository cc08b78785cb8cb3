"""List the claims `groundwire eval` gets wrong, one per line, with the verifier's reading.

`groundwire eval` prints balanced accuracy only; reading errors needs the claims behind
the figure. This prints, for one part of the labelled file (the fit half by default: the
test half is for reporting, never for reading), every claim whose predicted label
(`grounding_blocks`, exactly as the eval decides) differs from its gold label, with the
verdict, score and reasoning, and the source turns when `--source` is given.

    python bench/list_grounding_errors.py /work/shared/data/grounding-dev.jsonl \
        --part fit --dataset faithdial [--verifier learned] [--source] [--jsonl] [--all]

With --all every claim of the part is listed, right ones marked `ok`, wrong ones `ERR`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import orjson

from groundwire.guards.config import GuardsConfig
from groundwire.guards.grounding import build_verifier, grounding_blocks, verify_batch_safely
from groundwire.guards.grounding.evaluation import Example, load_examples
from groundwire.guards.protocols import GroundingRequest

BATCH = 64


async def _errors(
    examples: list[Example], verifier_name: str, keep_right: bool = False
) -> list[tuple[Example, object, bool]]:
    cfg = GuardsConfig().grounding.model_copy(update={"verifier": verifier_name})
    verifier = build_verifier(cfg)
    out = []
    for i in range(0, len(examples), BATCH):
        chunk = examples[i : i + BATCH]
        reqs = [GroundingRequest(e.claim, e.claim.source_turns) for e in chunk]
        reports = await verify_batch_safely(verifier, reqs)
        for e, r in zip(chunk, reports, strict=True):
            right = (not grounding_blocks(r, cfg)) == e.supported
            if keep_right or not right:
                out.append((e, r, right))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--part", choices=("fit", "test", "all"), default="fit")
    ap.add_argument("--dataset", default="", help="substring of the dataset name")
    ap.add_argument("--verifier", default="lexical")
    ap.add_argument("--source", action="store_true", help="print the source turns too")
    ap.add_argument("--jsonl", action="store_true", help="one JSON object per error")
    ap.add_argument("--all", action="store_true", help="list the right answers too")
    args = ap.parse_args(argv)
    if args.part != "fit":
        print("warning: read errors on the fit half only", file=sys.stderr)
    examples = [e for e in load_examples(args.data, args.part) if args.dataset in e.dataset]
    listed = asyncio.run(_errors(examples, args.verifier, args.all))
    errors = [x for x in listed if not x[2]]
    for e, r, right in listed:
        gold = "supported" if e.supported else "not_supported"
        if args.jsonl:
            doc = {
                "claim_id": e.claim.claim_id,
                "dataset": e.dataset,
                "gold": gold,
                "right": right,
                "verdict": str(r.verdict),
                "score": r.score,
                "adjusted": r.adjusted_confidence,
                "reasoning": r.reasoning,
                "content": e.claim.content,
                "source": [t.text for t in e.claim.source_turns],
            }
            sys.stdout.write(orjson.dumps(doc).decode() + "\n")
            continue
        print(
            f"{'ok ' if right else 'ERR'} {e.claim.claim_id} [{e.dataset}]"
            f" gold={gold} verdict={r.verdict}"
            f" score={r.score:.3f} adj={r.adjusted_confidence}"
        )
        print(f"   CLAIM: {e.claim.content}")
        print(f"   WHY: {r.reasoning}")
        if args.source:
            for t in e.claim.source_turns:
                print(f"   SRC[{t.source}]: {t.text}")
    print(f"# {len(errors)} errors of {len(examples)} claims", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
