"""CPU per claim of the two stages, in-process and with no broker: where the Python time goes.

The end-to-end benchmark (bench_pipeline.py) shares two cores with the broker, Redis and
its own producer and reader, so configuration changes inside the stages drown in noise
there. This one runs `ScreenStage.process` and `RouteStage.process` on the same corpus
claims (bench_pipeline's `claim()`) with in-memory stand-ins for the Kafka messages and an
in-memory dedup index, each configuration in a fresh interpreter (GC settings are per
process), configurations alternating, and reports the median over the repeats.

Baseline, in the same run: grounding in the route stage (the design's placement,
`GROUNDWIRE_GROUNDING_STAGE=route`; docs/architecture.md §Departures from the design)
with Python's default GC (no freeze, default thresholds). The other two put grounding in
the screen stage (the shipped default), first with Python's default GC, then with the
shipped GC settings (gen-0 threshold 50,000 and gc.freeze). The bottleneck stage bounds a
worker's throughput, so the headline is the ratio of the slower stage's CPU per claim.

Usage: python bench/bench_stages.py [--data PATH] [--claims 6000] [--repeats 3]
(`--data` as in bench_pipeline.py: default the synthetic sample in bench/data/)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

CONFIGS = {
    "baseline (grounding in route, default GC)": ("route", 0),
    "grounding in screen, default GC": ("screen", 0),
    "grounding in screen, tuned GC (default settings)": ("screen", 50_000),
}


class _Message:
    """Just the Message methods the stages call."""

    def __init__(
        self, value: bytes, key: bytes, headers: tuple[tuple[str, bytes], ...] = ()
    ) -> None:
        self._value, self._key, self._headers = value, key, headers

    def value(self) -> bytes:
        return self._value

    def key(self) -> bytes:
        return self._key

    def headers(self) -> list[tuple[str, bytes]] | None:
        return list(self._headers) or None

    def topic(self) -> str:
        return "bench"

    def partition(self) -> int:
        return 0

    def offset(self) -> int:
        return 0


async def _measure(n: int, grounding_stage: str, gc_gen0: int, data: Path) -> dict[str, float]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.bench_pipeline import claim, load_corpus
    from groundwire.guards.factory import build_grounder, build_validator
    from groundwire.streams.settings import Settings
    from groundwire.streams.stages import RouteStage, ScreenStage
    from groundwire.streams.worker import tune_gc

    settings = Settings(
        grounding_stage=grounding_stage,
        gc_gen0_threshold=gc_gen0,
        gc_freeze=bool(gc_gen0),
        metrics_port=0,
        guards={"dedup": {"backend": "memory"}, "citation": {"verify": False}},
    )
    grounder = build_grounder(settings.guards) if grounding_stage == "screen" else None
    screen = ScreenStage(settings, None, grounder)
    route = RouteStage(settings, build_validator(settings.guards))
    load_corpus(data)
    messages = [_Message(claim(i, "bench"), b"tenant") for i in range(n)]
    tune_gc(settings)  # as run_worker does, once the long-lived objects exist
    batch = settings.batch_size
    screened: list[_Message] = []
    t0 = time.process_time()
    for i in range(0, n, batch):
        outputs = await screen.process(messages[i : i + batch])
        screened.extend(_Message(o.value, o.key or b"", o.headers) for o in outputs)
    t1 = time.process_time()
    for i in range(0, len(screened), batch):
        await route.process(screened[i : i + batch])
    t2 = time.process_time()
    return {"screen_us": (t1 - t0) / n * 1e6, "route_us": (t2 - t1) / n * 1e6}


def _child(args: argparse.Namespace) -> None:
    result = asyncio.run(_measure(args.claims, args.grounding_stage, args.gc_gen0, args.data))
    print(json.dumps(result))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claims", type=int, default=6000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--grounding-stage", default="screen", help=argparse.SUPPRESS)
    ap.add_argument("--gc-gen0", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument(
        "--data",
        type=Path,
        default=Path(__file__).resolve().parent / "data" / "grounding-sample.jsonl",
        help="JSONL of claims with source turns (default: the synthetic sample in bench/data/)",
    )
    args = ap.parse_args()
    if not args.data.is_file():
        ap.error(f"--data {args.data}: no such file (see bench/data/README.md)")
    if args.child:
        _child(args)
        return
    print(
        f"machine: {platform.machine()} {os.cpu_count()} cores, {platform.platform()}, "
        f"Python {platform.python_version()}; {args.claims} claims, {args.repeats} repeats"
    )
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in CONFIGS}
    for _ in range(args.repeats):
        for name, (stage, gen0) in CONFIGS.items():
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    "--claims",
                    str(args.claims),
                    "--grounding-stage",
                    stage,
                    "--gc-gen0",
                    str(gen0),
                    "--data",
                    str(args.data),
                ],
                check=True,
                capture_output=True,
                text=True,
            )
            runs[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
    summary: dict[str, tuple[float, float]] = {}
    for name, results in runs.items():
        screen = statistics.median(r["screen_us"] for r in results)
        route = statistics.median(r["route_us"] for r in results)
        summary[name] = (screen, route)
    base = max(summary[next(iter(CONFIGS))])
    for name, (screen, route) in summary.items():
        slower = max(screen, route)
        print(
            f"{name:50} screen {screen:6.0f} us/claim  route {route:6.0f} us/claim  "
            f"bottleneck {slower:6.0f}  ratio {base / slower:4.2f}x"
        )
    slowest = max(summary[list(CONFIGS)[-1]])
    print(f"bottleneck_us_per_claim={slowest:.0f} vs_baseline={base / slowest:.2f}x")


if __name__ == "__main__":
    main()
