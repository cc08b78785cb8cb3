"""`scripts/chaos.sh --runs N`: the chaos matrix, written as a table to bench/results/chaos.md.

python -m tests.chaos.run --runs 5 [--claims 10000] [--scenarios a,b] [--brokers 3]
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from tests.chaos.cluster import ChaosStack
from tests.chaos.harness import RunResult, run_scenario
from tests.chaos.scenarios import SCENARIOS
from tests.support import REPO


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--claims", type=int, default=10_000)
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--brokers", type=int, default=3)
    parser.add_argument("--max-outage", type=float, default=300.0)
    parser.add_argument("--base-port", type=int, default=19300)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "chaos.md")
    args = parser.parse_args()
    names = [n.strip() for n in args.scenarios.split(",") if n.strip()]
    unknown = sorted(set(names) - set(SCENARIOS))
    if unknown:
        parser.error(f"unknown scenario(s) {unknown}; choose from {', '.join(SCENARIOS)}")
    work = Path(tempfile.mkdtemp(prefix="groundwire-chaos-"))
    stack = ChaosStack(work / "stack", args.base_port, brokers=args.brokers)
    results: dict[str, list[RunResult]] = defaultdict(list)
    stack.start()
    try:
        for run in range(args.runs):
            for name in names:
                result = run_scenario(
                    stack,
                    name,
                    SCENARIOS[name],
                    claims=args.claims,
                    seed=run * 1000 + sum(map(ord, name)),
                    work_dir=work,
                    max_outage_s=args.max_outage,
                )
                print(result, flush=True)
                results[name].append(result)
    finally:
        stack.stop()
    _write(args, names, results)


def _write(args: argparse.Namespace, names: list[str], results: dict[str, list[RunResult]]) -> None:
    lines = [
        "# Chaos suite results",
        "",
        f"`scripts/chaos.sh --runs {args.runs}` on {time.strftime('%Y-%m-%d')}: "
        f"{args.brokers} broker(s), replication {min(3, args.brokers)}, "
        f"{args.claims:,} claims per run, outages up to {args.max_outage:.0f} s; "
        f"machine: {platform.node()} ({platform.machine()}, {platform.processor() or 'cpu'}).",
        "",
        "| scenario | runs | lost | doubled | max time to resume (s) |",
        "|---|---|---|---|---|",
    ]
    for name in names:
        rows = results[name]
        resumes = [r.resume_s for r in rows if r.resume_s is not None]
        worst = f"{max(resumes):.1f}" if resumes else "n/a"
        lines.append(
            f"| {name} | {len(rows)} | {sum(r.lost for r in rows)} | "
            f"{sum(r.doubled for r in rows)} | {worst} |"
        )
    lines += ["", "Faults injected:", ""]
    for name in names:
        for r in results[name]:
            lines.append(f"- {name}: {r.fault} (lost {r.lost}, doubled {r.doubled})")
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
