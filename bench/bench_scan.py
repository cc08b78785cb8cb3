"""The consistency scan at scale: a memory view of 1,000,000 memories over 1,000 tenants.

A redis-server of its own (temp dir, free port, no persistence) holds the view, written
the way the memory stage writes it (records, versions, the subject/predicate index, the
tenant registry). Each tenant has people, services and projects with stateful facts
(works_at, lives_in, uses_database), non-stateful ones and free text, and a few planted
conflicts: a job change months apart (temporal evolution), a database switch one day
apart (contradiction), a repeated preference (equivalent) in a third of the tenants:
about 10 clusters per 10,000 memories.

Measured in child processes, one after the other, each with its own peak RSS:

* baseline: read the whole view once (HSCAN every tenant's memories, parse each record):
  the floor any scan pays;
* scan: `ScanJob.run` over every tenant (signals, rule judge, planning), with every
  cluster judged (no `max_clusters_per_scan` cap) and commands counted in memory instead
  of sent to Kafka (so Kafka is not measured);
* per-tenant growth: the signals on one tenant of 2,000, 20,000 and 200,000 memories (in
  memory, no Redis, CPU time, the least of three interleaved rounds): cost per memory
  from one size to the next, beside the log ratio that n log n would allow, and the
  candidate pairs per memory (the algorithm's own count, free of timing noise).

    python bench/bench_scan.py [--tenants 1000] [--per-tenant 1000] [--growth 2000,20000,200000]

Last line: scan_memories_per_s=... peak_rss_mb=...
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import redis
from scratch_redis import start_redis

from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.guards.consistency.memory import sp_key
from groundwire.guards.consistency.signals import SemanticIndex, SignalStats
from groundwire.streams.memory.scan_job import tenant_clusters
from groundwire.streams.memory.view import MemoryView, sp_field
from groundwire.topics.memory import MemoryRecord, memory_id

PREFIX = "bench:mem:t"
GROWTH_REPEATS = 3
EPOCH = datetime(2024, 1, 1, tzinfo=UTC)
PEOPLE = ["Georgian", "Amara", "Bilal", "Chen", "Dana", "Emil", "Farah", "Goran", "Hana", "Ivo"]
ORGS = ["Datakynd", "Arrive", "Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay"]
CITIES = ["Bangalore", "Berlin", "Lagos", "Lima", "Oslo", "Osaka", "Porto", "Quito"]
DBS = ["Supabase", "Neon", "PostgreSQL", "MySQL", "SQLite", "CockroachDB", "Turso"]
TOPICS = ["billing", "search", "export", "auth", "ingest", "alerts", "reports", "sync"]
WORDS = [
    *("queue", "retry", "window", "batch", "shard", "index", "cache", "token", "lease"),
    *("quota", "budget", "schema", "field", "route", "replica", "region", "cluster"),
    *("bucket", "archive", "snapshot", "timer", "cursor", "ledger", "digest", "worker"),
    *("channel", "stream", "latency", "backlog", "pool", "socket", "handler", "parser"),
    "encoder",
]


def _record(
    tenant: str, i: int, content: str, spo: tuple[str, str, str], day: int, **kw: Any
) -> MemoryRecord:
    at = EPOCH + timedelta(days=day)
    claim_id = f"c{i}"
    return MemoryRecord(
        memory_id=memory_id(tenant, claim_id),
        tenant_id=tenant,
        user_id=f"u{i % 7}",
        claim_id=claim_id,
        version=1,
        change="created",  # type: ignore[arg-type]
        content=content,
        memory_type=kw.get("memory_type", "fact"),
        source="user",  # type: ignore[arg-type]
        subject=spo[0],
        predicate=spo[1],
        object=spo[2],
        spo_from="claim" if spo[0] else "none",
        valid_from=at,
        confidence=round(0.6 + (i % 40) / 100, 2),
        created_at=at,
        updated_at=at,
        cause="bench",
    )


def tenant_memories(t: int, n: int) -> list[MemoryRecord]:
    """n memories of one tenant: realistic mix, a few planted conflicts."""
    rng = random.Random(t)
    tenant = f"tenant-{t:05d}"
    out: list[MemoryRecord] = []
    i = 0
    entities = max(1, n // 12)
    for e in range(entities):
        person = f"{PEOPLE[e % len(PEOPLE)]}{t}x{e}"
        service = f"svc-{TOPICS[e % len(TOPICS)]}-{t}-{e}"
        for content, spo in (
            (f"{person} works at {ORGS[e % 8]}", (person, "works_at", ORGS[e % 8])),
            (f"{person} lives in {CITIES[e % 8]}", (person, "lives_in", CITIES[e % 8])),
            (
                f"{service} uses {DBS[e % 7]} as its database",
                (service, "uses_database", DBS[e % 7]),
            ),
        ):
            out.append(_record(tenant, i, content, spo, rng.randrange(700)))
            i += 1
    planted = [
        # a job change five months apart: temporal evolution
        (f"Georgian{t} works at Datakynd", (f"Georgian{t}", "works_at", "Datakynd"), 150),
        (f"Georgian{t} works at Arrive", (f"Georgian{t}", "works_at", "Arrive"), 300),
        # a database switch one day apart: contradiction
        (
            f"Inbox{t} uses Supabase as its database",
            (f"Inbox{t}", "uses_database", "Supabase"),
            400,
        ),
        (f"Inbox{t} uses Neon as its database", (f"Inbox{t}", "uses_database", "Neon"), 401),
        # the same preference twice: equivalent
        (
            f"Georgian{t} prefers concise responses",
            (f"Georgian{t}", "prefers", "concise responses"),
            500,
        ),
        (
            f"Georgian{t} prefers concise responses.",
            (f"Georgian{t}", "prefers", "concise responses"),
            520,
        ),
    ]
    if t % 3 == 0:  # a third of the tenants: ~10 clusters per 10k memories overall
        for content, spo, day in planted:
            out.append(_record(tenant, i, content, spo, day))
            i += 1
    while len(out) < n:
        words = rng.sample(WORDS, 7)
        topic = TOPICS[i % len(TOPICS)]
        content = (
            f"The {topic} {words[0]} keeps its {words[1]} {words[2]} for {i % 97} "
            f"{words[3]}s per {words[4]} {words[5]} {words[6]} k{t}x{i}"
        )
        likes = i % 5 == 0
        liked = f"{words[0]} {words[1]} {words[2]}"  # 39,270 values: a repeat is rare
        spo = (f"u{i % 7}", "likes", liked) if likes else ("", "", "")
        out.append(
            _record(
                tenant,
                i,
                content,
                spo,
                rng.randrange(700),
                memory_type="preference" if likes else "fact",
            )
        )
        i += 1
    return out[:n]


def load(port: int, tenants: int, per_tenant: int) -> float:
    """Write the view as the memory stage does; returns seconds."""
    client = redis.Redis(port=port)
    view = MemoryView(client, PREFIX, ConsistencyConfig())  # only for key names
    started = time.perf_counter()
    for t in range(tenants):
        memories = tenant_memories(t, per_tenant)
        tenant = memories[0].tenant_id
        records = {m.memory_id: m.model_dump_json() for m in memories}
        versions = dict.fromkeys(records, 1)
        index: dict[str, list[str]] = {}
        for m in memories:
            key = sp_key(m)
            if key is not None:
                index.setdefault(sp_field(key), []).append(m.memory_id)
        pipe = client.pipeline(transaction=False)
        pipe.hset(view.key(tenant, "a"), mapping=records)
        pipe.hset(view.key(tenant, "v"), mapping=versions)
        pipe.hset(view.key(tenant, "sp"), mapping={k: " ".join(v) for k, v in index.items()})
        pipe.zadd(view.tenants_key, {tenant: 0})
        pipe.execute()
    return time.perf_counter() - started


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class _Counting:
    """Stands in for the Kafka publisher: counts the commands a scan would send."""

    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()

    def send(self, commands: list[Any]) -> None:
        self.kinds.update(c.kind for c in commands)


async def _phase(phase: str, port: int) -> dict[str, Any]:
    import redis.asyncio as aioredis

    from groundwire.streams.memory.scan_job import ScanJob, ScanOptions
    from groundwire.streams.settings import Settings

    client = aioredis.Redis(port=port)
    cfg = ConsistencyConfig(signals={"semantic_backend": "minhash"})  # type: ignore[arg-type]
    view = MemoryView(client, PREFIX, cfg)
    started, cpu_started = time.perf_counter(), _cpu_s()
    if phase == "read":
        memories = tenants = 0
        after = None
        while True:
            page = await view.tenants(after, 100)
            for tenant in page:
                memories += len(await view.active_memories(tenant))
                tenants += 1
            if len(page) < 100:
                break
            after = page[-1]
        result: dict[str, Any] = {"memories": memories, "tenants": tenants}
    else:
        settings = Settings(guards={"consistency": cfg.model_dump()})  # type: ignore[arg-type]
        publisher = _Counting()
        job = ScanJob(settings, view, publisher=publisher)
        report = await job.run(ScanOptions(run_id="bench", budget=10**9))
        result = {
            "memories": report.memories_scanned,
            "tenants": report.tenants_scanned,
            "clusters": report.clusters_found,
            "verdicts": {k.value: v for k, v in report.verdicts.items()},
            "commands": dict(publisher.kinds),
            "complete": report.complete,
            "backend": report.semantic_backend,
        }
    result["seconds"] = time.perf_counter() - started
    result["cpu_s"] = _cpu_s() - cpu_started
    result["peak_rss_mb"] = _peak_mb()
    await client.aclose()
    return result


def run_phase(phase: str, port: int) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, __file__, "--phase", phase, "--port", str(port)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"phase {phase} failed:\n{proc.stderr[-3000:]}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def growth(sizes: list[int]) -> list[tuple[int, float, int]]:
    """The signals on one tenant of each size, as the scan runs them (`tenant_clusters`,
    in memory, no Redis): (n, CPU microseconds per memory, candidate pairs compared).
    The sizes take turns, GROWTH_REPEATS rounds, and each keeps its least: other work on
    the cores moves single runs by +-30 %."""
    cfg = ConsistencyConfig(signals={"semantic_backend": "minhash"})  # type: ignore[arg-type]
    index = SemanticIndex(cfg)
    tenants = {size: tenant_memories(7, size) for size in sizes}
    best = dict.fromkeys(sizes, math.inf)
    pairs = dict.fromkeys(sizes, 0)
    for _ in range(GROWTH_REPEATS):
        for size in sizes:
            stats = SignalStats()
            started = time.process_time()
            tenant_clusters(tenants[size], cfg, index, stats)  # what the scan runs
            best[size] = min(best[size], time.process_time() - started)
            pairs[size] = stats.candidate_pairs
    return [(size, best[size] / size * 1e6, pairs[size]) for size in sizes]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tenants", type=int, default=1_000)
    ap.add_argument("--per-tenant", type=int, default=1_000)
    ap.add_argument(
        "--growth",
        default="2000,20000,200000",
        help="tenant sizes of the growth check, comma-separated",
    )
    ap.add_argument("--phase", choices=("read", "scan"), help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.phase:
        print(json.dumps(asyncio.run(_phase(args.phase, args.port))))
        return
    workdir = Path(tempfile.mkdtemp(prefix="bench-scan-"))
    proc, port = start_redis(workdir)
    try:
        total = args.tenants * args.per_tenant
        print(f"loading {total:,} memories over {args.tenants:,} tenants ...", flush=True)
        load_s = load(port, args.tenants, args.per_tenant)
        used = redis.Redis(port=port).info("memory")["used_memory"]
        print(
            f"  loaded in {load_s:.1f} s; Redis holds {used / 2**20:,.0f} MiB "
            f"({used / total:,.0f} bytes per memory)",
            flush=True,
        )
        read = run_phase("read", port)
        read_rate = read["memories"] / read["seconds"]
        print(
            f"baseline (read the view): {read['memories']:,} memories in "
            f"{read['seconds']:.1f} s ({read_rate:,.0f}/s; CPU {read['cpu_s']:.1f} s), "
            f"peak RSS {read['peak_rss_mb']:.0f} MB",
            flush=True,
        )
        scan = run_phase("scan", port)
        rate = scan["memories"] / scan["seconds"]
        print(
            f"scan: {scan['memories']:,} memories, {scan['tenants']:,} tenants in "
            f"{scan['seconds']:.1f} s ({rate:,.0f}/s; CPU {scan['cpu_s']:.1f} s), peak RSS "
            f"{scan['peak_rss_mb']:.0f} MB; ratio to the baseline: time "
            f"{scan['seconds'] / read['seconds']:.2f}x, CPU {scan['cpu_s'] / read['cpu_s']:.2f}x",
            flush=True,
        )
        per_10k = scan["clusters"] / scan["memories"] * 1e4
        print(
            f"  clusters {scan['clusters']:,} ({per_10k:.1f} per 10k), verdicts "
            f"{scan['verdicts']}, commands {scan['commands']}, semantic {scan['backend']}"
        )
        minutes_1m = 1_000_000 / rate / 60
        print(f"  1,000,000 memories at this rate: {minutes_1m:.1f} min (target: under 10)")
        sizes = [int(x) for x in args.growth.split(",")]
        print("per-tenant growth (signals of one tenant, CPU):", flush=True)
        previous: tuple[int, float, int] | None = None
        for n, us, pairs in growth(sizes):
            line = f"  n={n:>9,}: {us:6.1f} us/memory, {pairs / n:5.1f} candidate pairs/memory"
            if previous is not None:
                allowed = math.log(n) / math.log(previous[0])
                line += f"; per memory x{us / previous[1]:.2f} (n log n allows x{allowed:.2f})"
            print(line, flush=True)
            previous = (n, us, pairs)
        print(f"scan_memories_per_s={rate:.0f} peak_rss_mb={scan['peak_rss_mb']:.0f}")
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
