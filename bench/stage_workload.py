"""A fixed, repeatable stage workload for instruction counts (callgrind) and A/B timing.

Timings on the shared two-core machine swing ±20 % with the other engineers' load, so a
change of a few per cent cannot be decided with `bench_stages.py` alone. The number of
instructions a fixed workload executes does not depend on the load: run this under
`valgrind --tool=callgrind` with `--passes 1` and `--passes 2` (each pass builds fresh
stages; the process's word and turn caches stay warm), and the difference divided by K
is the stage's instructions per claim, warm; `--passes 1` against `--claims 0` (imports,
building the stages, loading the corpus) gives the first pass's, caches filling.
`PYTHONHASHSEED=0` fixes the order sets iterate in; two runs of the route stage agreed to
0.1 % of the per-claim figure, of the screen stage (whose records carry timings) to 1.4 %.

    # once per code: the screened records the route stage reads (screen's output)
    python bench/stage_workload.py --record /tmp/screened.bin --claims 2400 --data DEV
    # the route stage over the first K of them, twice; the screen stage over K claims
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python bench/stage_workload.py --stage route --input /tmp/screened.bin \\
        --claims 600 --passes 2
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python bench/stage_workload.py --stage screen --claims 200 --passes 2 --data DEV

`--instrument-last-pass` counts one warm pass alone, in one process: run under
`valgrind --tool=callgrind --instr-atstart=no`, the workload switches callgrind's
instrumentation on (`callgrind_control -i on`) before its last pass and off after it, so
the total is that pass's instructions: no interpreter start-up, imports, building the
stage or first pass to subtract, and (with `setarch -R`, no address randomisation) three
runs of the screen stage agreed to 50 instructions a claim (session 13):

    PYTHONHASHSEED=0 setarch -R valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/dev/null python bench/stage_workload.py --stage screen \\
        --claims 200 --passes 2 --instrument-last-pass --data DEV

Without valgrind, `--passes P` runs the workload P times in one process (fresh stages
each pass, the process's word caches kept) and prints the process CPU time per claim of
each pass: the warm figure for alternating A/B runs of two codes.

The route stage uses the in-memory dedup index, no ledger store and no broker, as
`bench_stages.py` does; the screen stage grounds (the shipped placement).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pickle
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_stages import _Message


def _settings():  # type: ignore[no-untyped-def]
    from groundwire.streams.settings import Settings

    return Settings(
        grounding_stage="screen",
        gc_gen0_threshold=50_000,
        gc_freeze=True,
        metrics_port=0,
        guards={"dedup": {"backend": "memory"}, "citation": {"verify": False}},
    )


def _screen_stage():  # type: ignore[no-untyped-def]
    from groundwire.guards.factory import build_grounder
    from groundwire.streams.stages import ScreenStage

    settings = _settings()
    return ScreenStage(settings, None, build_grounder(settings.guards))


def _route_stage():  # type: ignore[no-untyped-def]
    from groundwire.guards.factory import build_validator
    from groundwire.streams.stages import RouteStage

    settings = _settings()
    return RouteStage(settings, build_validator(settings.guards))


async def _screen(
    values: list[bytes],
    batch: int,
    stage: Any = None,
) -> list[tuple[bytes, bytes, tuple]]:  # type: ignore[type-arg]
    stage = stage or _screen_stage()
    out: list[tuple[bytes, bytes, tuple]] = []  # type: ignore[type-arg]
    for i in range(0, len(values), batch):
        msgs = [_Message(v, b"tenant") for v in values[i : i + batch]]
        for o in await stage.process(msgs):
            out.append((o.value, o.key or b"", tuple(o.headers or ())))
    return out


async def _route(records: list[tuple[bytes, bytes, tuple]], batch: int, stage: Any = None) -> int:  # type: ignore[type-arg]
    stage = stage or _route_stage()
    msgs = [_Message(v, k, h) for v, k, h in records]
    n = 0
    for i in range(0, len(msgs), batch):
        n += len(await stage.process(msgs[i : i + batch]))
    return n


def _callgrind_instrumentation(state: str) -> None:
    """Switch callgrind's instrumentation of this process on or off (waits for it)."""
    import os
    import subprocess

    subprocess.run(
        ["callgrind_control", "-i", state, str(os.getpid())], check=True, capture_output=True
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stage", choices=("screen", "route"), default="route")
    ap.add_argument("--claims", type=int, default=600)
    ap.add_argument("--passes", type=int, default=1)
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--data", type=Path, default=Path("/work/shared/data/grounding-dev.jsonl"))
    ap.add_argument("--input", type=Path, help="screened records (--record) for --stage route")
    ap.add_argument("--record", type=Path, help="screen --claims claims and write the records")
    ap.add_argument(
        "--instrument-last-pass",
        action="store_true",
        help="under callgrind --instr-atstart=no: instrument the last pass only",
    )
    args = ap.parse_args()

    from bench.bench_pipeline import claim, load_corpus

    if args.record is not None or args.stage == "screen":
        load_corpus(args.data)
        values = [claim(i, "bench") for i in range(args.claims)]
    import gc

    gc.set_threshold(50_000)
    if args.record is not None:
        records = asyncio.run(_screen(values, args.batch))
        args.record.write_bytes(pickle.dumps(records))
        print(f"wrote {len(records)} screened records to {args.record}")
        return
    if args.stage == "route":
        if args.input is None:
            ap.error("--stage route needs --input (written by --record)")
        records = pickle.loads(args.input.read_bytes())[: args.claims]
    times = []
    for k in range(args.passes):
        last = k == args.passes - 1
        # a fresh stage each pass (the route stage's dedup index would otherwise find the
        # whole second pass duplicate), built before the count starts: the figure is the
        # stage's work on the claims, not its construction (session 16; until then ~44,600
        # instructions a claim of settings and guard construction were in the route figure)
        stage = _route_stage() if args.stage == "route" else _screen_stage()
        if last and args.instrument_last_pass:
            _callgrind_instrumentation("on")
        t0 = time.process_time()
        if args.stage == "route":
            asyncio.run(_route(records, args.batch, stage))
        else:
            asyncio.run(_screen(values, args.batch, stage))
        times.append((time.process_time() - t0) / max(args.claims, 1) * 1e6)
        if last and args.instrument_last_pass:
            _callgrind_instrumentation("off")
    print(json.dumps({"stage": args.stage, "claims": args.claims, "us_per_claim": times}))


if __name__ == "__main__":
    main()
