"""The claim ledger's CPU per claim: one script call per batch against a pipeline of one
`SET` per claim (the baseline, and what a Redis Cluster uses), in the same run on the
same Redis.

Each claim is checked (`SET NX GET`) and then recorded (`SET XX`), as the route stage
does, in batches of 500 (a backlog) and of 10 (a light load). CPU is this process's
(the client's Python, what the route stage pays); wall time includes Redis.

Usage: python bench/bench_ledger.py [--redis-url URL] [--claims 10000] [--repeats 3]
Needs a Redis (scripts/stack.sh start). Last line:
ledger_us_per_claim=... pipeline_us_per_claim=... ratio=... (batches of 500)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import time
import uuid

import redis.asyncio as aioredis
from bench_pipeline import drop_keys

from groundwire.streams.ledger import ClaimLedger, LedgerEntry
from groundwire.topics.records import Claim


def _entries(n: int, tag: str) -> list[LedgerEntry]:
    text = "the billing service retries failed card payments three times with backoff"
    return [
        LedgerEntry(
            Claim(claim_id=f"{tag}-{i}", tenant_id=f"t{i % 50}", content=text, source="user"),
            f"claims:{i % 6}:{i}",
        )
        for i in range(n)
    ]


async def _run(url: str, scripted: bool, batch: int, n: int) -> tuple[float, float]:
    """(CPU µs per claim, wall µs per claim) for n claims checked and recorded."""
    client = aioredis.Redis.from_url(url)
    prefix = f"gwbench:ledger:{uuid.uuid4().hex[:8]}"
    ledger = ClaimLedger(client, prefix, 600, scripted=scripted)
    entries = _entries(n, prefix)
    await ledger.check(entries[:batch])  # connection and script load outside the timing
    entries = entries[batch:]
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(0, len(entries), batch):
        part = entries[i : i + batch]
        await ledger.check(part)
        await ledger.record([(e, "approved") for e in part])
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await ledger.aclose()
    drop_keys(url, (prefix,))
    return cpu / len(entries) * 1e6, wall / len(entries) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--redis-url", default=os.environ.get("GROUNDWIRE_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    ap.add_argument("--claims", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(
        f"machine: {platform.machine()} {os.cpu_count()} cores, {platform.platform()}, "
        f"Python {platform.python_version()}; {args.claims} claims, {args.repeats} repeats"
    )
    medians: dict[tuple[int, bool], float] = {}
    for batch in (500, 10):
        runs: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for _ in range(args.repeats):  # alternating, so drift on a shared machine hits both
            for scripted in (False, True):
                result = asyncio.run(_run(args.redis_url, scripted, batch, args.claims))
                runs[scripted].append(result)
        for scripted in (False, True):
            cpu = statistics.median(r[0] for r in runs[scripted])
            wall = statistics.median(r[1] for r in runs[scripted])
            medians[(batch, scripted)] = cpu
            name = "one script call" if scripted else "pipeline (baseline)"
            print(
                f"batch {batch:>3}  {name:<20} {cpu:6.1f} us CPU/claim  {wall:6.1f} us wall/claim"
                f"  (runs: {', '.join(f'{r[0]:.1f}' for r in runs[scripted])})"
            )
    ours, base = medians[(500, True)], medians[(500, False)]
    print(
        f"ledger_us_per_claim={ours:.1f} pipeline_us_per_claim={base:.1f} ratio={ours / base:.2f}"
    )


if __name__ == "__main__":
    main()
