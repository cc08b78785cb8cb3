"""What the learned verifier costs per claim beyond the lexical one, on the same claims.

    python bench/bench_verifier_cost.py [--claims N] [--rounds R] [--learned-model PATH]
    PYTHONHASHSEED=0 setarch -R valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/dev/null python bench/bench_verifier_cost.py \\
        --verifier learned --claims 400 --instrument-last-pass

The first `--claims` claims of the fit half of the labelled file (`--data`, default the
shared dev file; the fit half because the test half is for reporting) go through
`verify_batch` in batches of 500, as the screen stage sends them. Without
`--verifier` both verifiers run in one process, alternating, `--rounds` times each, warm
turn caches (one untimed pass first): the median CPU time (`time.process_time`) per
claim of each and the ratio learned / lexical of the same run, which the machine's load
moves much less than either figure.

With `--verifier lexical|learned` and `--instrument-last-pass` the process runs one warm
pass untimed, then switches callgrind's instrumentation on (`callgrind_control -i on`)
for a second pass and off after it: callgrind's total is that warm pass's instructions
alone (no start-up, imports or cold caches). Divide by `--claims` for instructions per
claim. `--learned-model` scores with another model file (one fitted with
`train_grounding.py --lexical-view`, which reads each claim through the lexical verifier).
Nothing is asserted: timings belong here, not in tests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from groundwire.guards.config import GroundingConfig
from groundwire.guards.grounding import build_verifier
from groundwire.guards.grounding.evaluation import load_examples
from groundwire.guards.protocols import GroundingRequest, GroundingVerifier

BATCH = 500  # the stream's default batch size
DEV = Path("/work/shared/data/grounding-dev.jsonl")


def requests(path: Path, n: int) -> list[GroundingRequest]:
    """The first `n` claims of the fit half, with their own turns."""
    claims = [e.claim for e in load_examples(path, "fit")][:n]
    return [GroundingRequest(c, c.source_turns) for c in claims]


def one_pass(verifier: GroundingVerifier, reqs: Sequence[GroundingRequest]) -> float:
    """CPU seconds for one pass over `reqs` in stream batches."""

    async def run() -> None:
        for i in range(0, len(reqs), BATCH):
            await verifier.verify_batch(reqs[i : i + BATCH])

    t0 = time.process_time()
    asyncio.run(run())
    return time.process_time() - t0


def _callgrind(state: str) -> None:
    """Switch callgrind's instrumentation of this process on or off (waits for it)."""
    subprocess.run(
        ["callgrind_control", "-i", state, str(os.getpid())], check=True, capture_output=True
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEV)
    ap.add_argument("--claims", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--learned-model", type=Path, default=None)
    ap.add_argument("--verifier", choices=("lexical", "learned"), default=None)
    ap.add_argument(
        "--instrument-last-pass",
        action="store_true",
        help="under callgrind --instr-atstart=no: instrument the second (warm) pass only",
    )
    args = ap.parse_args()
    reqs = requests(args.data, args.claims)
    verifiers = {
        "lexical": build_verifier(GroundingConfig(verifier="lexical")),
        "learned": build_verifier(
            GroundingConfig(verifier="learned", learned_model_path=args.learned_model)
        ),
    }
    if args.verifier is not None:
        verifier = verifiers[args.verifier]
        one_pass(verifier, reqs)  # warm the word and turn caches
        if args.instrument_last_pass:
            _callgrind("on")
        spent = one_pass(verifier, reqs)
        if args.instrument_last_pass:
            _callgrind("off")
        us = spent / len(reqs) * 1e6
        print(json.dumps({"verifier": args.verifier, "claims": len(reqs), "us_per_claim": us}))
        return
    for v in verifiers.values():
        one_pass(v, reqs)  # warm
    times: dict[str, list[float]] = {name: [] for name in verifiers}
    ratios: list[float] = []
    for _ in range(args.rounds):
        for name, v in verifiers.items():
            times[name].append(one_pass(v, reqs) / len(reqs) * 1e6)
        ratios.append(times["learned"][-1] / times["lexical"][-1])
    lex, lrn = statistics.median(times["lexical"]), statistics.median(times["learned"])
    print(f"{len(reqs)} claims, {args.rounds} alternating rounds, median CPU µs per claim")
    print(f"lexical {lex:8.1f}   {' '.join(f'{t:.0f}' for t in times['lexical'])}")
    print(f"learned {lrn:8.1f}   {' '.join(f'{t:.0f}' for t in times['learned'])}")
    print(
        f"learned - lexical {lrn - lex:+.1f} µs; ratio learned / lexical, median of rounds "
        f"{statistics.median(ratios):.3f} ({' '.join(f'{r:.3f}' for r in ratios)})"
    )


if __name__ == "__main__":
    main()
