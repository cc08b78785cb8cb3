"""What a worker costs while it has nothing to do: CPU per second on empty partitions.

    python bench/bench_idle.py [--partitions 12] [--stages screen,route] [--seconds 20]

A worker per tenant group or per region spends much of its life idle, and each stage
process polls its consumer in a loop (health and lag reports come round with it), so the
idle cost is paid per process, per replica. Baseline in the same run: the worker with
`GROUNDWIRE_BATCH_WITHIN_S=0.05`, the idle wait every release before adaptive batching
used (it was then also how long a batch waited to fill, so it had to stay short). The
stage consumers' `fetch.wait.max.ms` (50 ms in both; `kafka.consumer_extra` sets it) is
the other half of an idle worker's cost: `--fetch-wait-ms 500` runs the default settings
with it raised, to show what that would save. Each
configuration starts a worker on fresh empty topics, waits for start-up to finish, then
reads the CPU time of the worker's process tree (/proc, as bench_pipeline.py) over
`--seconds`; configurations alternate, median of `--repeats`. Needs the stack running.
Last line: idle_ms_per_s=... baseline_ms_per_s=... ratio=...
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_pipeline import tree_cpu_s, worker_env

from groundwire.streams.admin import create_topics, delete_topics
from groundwire.streams.settings import Settings

BASELINE = "baseline (0.05 s idle wait)"
CONFIGS: dict[str, dict[str, str]] = {
    BASELINE: {
        "GROUNDWIRE_BATCH_WITHIN_S": "0.05",
    },
    "default settings": {},
}


def idle_cost(args: argparse.Namespace, overrides: dict[str, str]) -> float:
    """CPU milliseconds per second of a started, idle worker."""
    run = uuid.uuid4().hex[:8]
    settings = Settings(
        bootstrap_servers=args.bootstrap, topic_prefix=f"gwidle.{run}.", partitions=args.partitions
    )
    create_topics(settings)
    env = worker_env(settings, args.bootstrap, args.redis_url, run)
    for name in ("GROUNDWIRE_BATCH_WITHIN_S", "GROUNDWIRE_KAFKA__CONSUMER_EXTRA"):
        env.pop(name, None)
    env.update(overrides)
    cmd = [sys.executable, "-m", "groundwire.streams.cli", "worker", "--log-level", "warning"]
    proc = subprocess.Popen([*cmd, "--stages", args.stages], env=env)
    try:
        time.sleep(args.warmup)  # imports, guards, group join, first lag report
        before = tree_cpu_s(proc.pid)
        time.sleep(args.seconds)
        spent = tree_cpu_s(proc.pid) - before
        if proc.poll() is not None:
            raise SystemExit(f"worker exited with {proc.returncode} while measured")
        return spent / args.seconds * 1e3
    finally:
        proc.terminate()
        proc.wait(30)
        delete_topics(settings)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--bootstrap", default=os.environ.get("GROUNDWIRE_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    )
    ap.add_argument(
        "--redis-url", default=os.environ.get("GROUNDWIRE_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    ap.add_argument("--partitions", type=int, default=12)
    ap.add_argument("--stages", default="screen,route")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--warmup", type=float, default=25.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument(
        "--fetch-wait-ms", type=int, default=0, help="fetch.wait.max.ms for the default run"
    )
    args = ap.parse_args()
    if args.fetch_wait_ms:
        CONFIGS["default settings"] = {
            "GROUNDWIRE_KAFKA__CONSUMER_EXTRA": f'{{"fetch.wait.max.ms": {args.fetch_wait_ms}}}'
        }
    print(
        f"machine: {platform.machine()} {os.cpu_count()} cores, {platform.platform()}, "
        f"load {os.getloadavg()[0]:.1f}; {args.partitions} partitions, stages {args.stages}"
    )
    results: dict[str, list[float]] = {name: [] for name in CONFIGS}
    for _ in range(args.repeats):
        for name, overrides in CONFIGS.items():
            results[name].append(idle_cost(args, overrides))
            print(f"  {name:46s} {results[name][-1]:6.1f} ms CPU per s", flush=True)
    medians = {name: statistics.median(v) for name, v in results.items()}
    base, ours = medians[BASELINE], medians["default settings"]
    print(f"idle_ms_per_s={ours:.1f} baseline_ms_per_s={base:.1f} ratio={ours / base:.2f}")


if __name__ == "__main__":
    main()
