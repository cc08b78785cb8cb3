"""Summarise a py-spy raw profile of the stages: where the CPU of `process()` goes.

py-spy's flame graph shows the shape; this prints the two tables the results files quote
(inclusive and self time per function), restricted to the samples inside the stages'
`process()` so imports, building the guards and loading the corpus do not dilute them.

    py-spy record --rate 250 --format raw -o prof.txt -- \\
        python bench/bench_stages.py --child --claims 12000 --grounding-stage screen \\
        --gc-gen0 50000 --data grounding-dev.jsonl
    python bench/profile_summary.py prof.txt [--top 30] [--within Stage.process]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

# A py-spy raw frame: "function (path/to/module.py:line)"; the line is dropped so that one
# function's samples add up across its lines.
_FRAME = re.compile(r"^(?P<func>.*?) \((?P<path>[^()]*?)(?::\d+)?\)$")


def _name(frame: str) -> str:
    m = _FRAME.match(frame)
    if m is None:
        return frame
    parts = Path(m["path"]).parts
    return f"{m['func']} ({'/'.join(parts[-2:])})"


def summarise(lines: list[str], within: str, top: int) -> str:
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = inside = 0
    for line in lines:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [_name(f) for f in stack.split(";")]
        starts = [i for i, f in enumerate(frames) if within in f]
        if not starts:
            continue
        inside += n
        below = frames[starts[0] :]
        for name in set(below):
            inclusive[name] += n
        own[below[-1]] += n
    if not inside:
        raise SystemExit(f"no samples inside a frame matching {within!r}")
    out = [f"Samples: {total}, of which {inside} inside {within}; percentages are of those."]
    out.append(f"\nTop {top} by inclusive time (the function and everything it calls):")
    out += [f"{n / inside:7.1%}  {name}" for name, n in inclusive.most_common(top)]
    out.append(f"\nTop {top} by self time (samples where the function itself was running):")
    out += [f"{n / inside:7.1%}  {name}" for name, n in own.most_common(top)]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("profile", type=Path, help="py-spy record --format raw output")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--within", default="Stage.process", help="count only samples under this")
    args = ap.parse_args()
    print(summarise(args.profile.read_text().splitlines(), args.within, args.top))


if __name__ == "__main__":
    main()
