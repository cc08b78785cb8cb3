"""Dedup speed and Redis memory: groundwire's index vs datasketch's MinHashLSH on Redis.

Both run in the same process against the same freshly started redis-server (own temp dir,
free port, so memory numbers are this index's alone), on the same corpus: the sentences of
a labelled claims file (`--data`, default: the synthetic sample in bench/data/; the figures
in docs/dedup.md use the real set bench/data/README.md describes) plus synthetic
near-duplicate edits (bench/eval_dedup.py builds it). Check-and-insert means: decide each
claim against the tenant's memories and index it when unique, in stream order.

* groundwire: `check_and_insert` in batches (signatures for the whole batch in numpy, one
  Lua call per tenant, one round trip per batch), exact Jaccard confirmation included.
* baseline: datasketch `MinHashLSH(threshold, num_perm, storage_config={'type': 'redis'})`,
  per claim `query` then `insert` when no candidate (no exact confirmation, so it does
  less work than groundwire); its MinHashes come from `MinHash.bulk`, signatures untimed.

    python bench/bench_dedup.py [--data PATH] [--claims N] [--batch B] [--baseline-claims N]

Last line: dedup_per_s=... vs_datasketch=...x bytes_per_memory=...
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

import redis
from datasketch import MinHash, MinHashLSH

sys.path.insert(0, str(Path(__file__).resolve().parent))
from eval_dedup import add_data_argument, build_stream, load_sentences
from scratch_redis import start_redis

from groundwire.guards.config import DedupConfig
from groundwire.guards.dedup import build_dedup_index
from groundwire.guards.dedup.minhash import clear_token_cache, tokenize
from groundwire.guards.protocols import DedupRequest


def used_memory(client: redis.Redis) -> int:
    return int(client.info("memory")["used_memory"])


def bench_signatures(texts: list[str], cfg: DedupConfig) -> tuple[float, float]:
    """µs per claim for fingerprints (tokenise, hash, MinHash, bands): cold and warm cache."""
    index = build_dedup_index(cfg)
    clear_token_cache()
    t0 = time.perf_counter()
    for start in range(0, len(texts), 500):
        index.fingerprints(texts[start : start + 500])
    cold = (time.perf_counter() - t0) / len(texts) * 1e6
    t0 = time.perf_counter()
    for start in range(0, len(texts), 500):
        index.fingerprints(texts[start : start + 500])
    warm = (time.perf_counter() - t0) / len(texts) * 1e6
    return cold, warm


def bench_datasketch_signatures(texts: list[str], cfg: DedupConfig) -> float:
    t0 = time.perf_counter()
    MinHash.bulk([[w.encode("utf-8") for w in tokenize(t)] for t in texts], num_perm=cfg.num_perm)
    return (time.perf_counter() - t0) / len(texts) * 1e6


async def bench_groundwire(
    reqs: list[DedupRequest], cfg: DedupConfig, url: str, batch: int
) -> tuple[float, int, int]:
    """(claims/s, duplicates found, memories indexed)."""
    index = build_dedup_index(cfg, url)
    dups = 0
    try:
        await index.check_and_insert([DedupRequest("warmup", "w", "warm up the script cache")])
        await index.remove("warmup", "w")
        t0 = time.perf_counter()
        for start in range(0, len(reqs), batch):
            res = await index.check_and_insert(reqs[start : start + batch])
            if any(r.failed for r in res):
                raise RuntimeError(next(r.error for r in res if r.failed))
            dups += sum(r.is_duplicate for r in res)
        elapsed = time.perf_counter() - t0
    finally:
        await index.aclose()
    return len(reqs) / elapsed, dups, len(reqs) - dups


def bench_datasketch(reqs: list[DedupRequest], cfg: DedupConfig, port: int) -> tuple[float, int]:
    """(claims/s, duplicates found): one MinHashLSH per tenant on Redis, query-then-insert."""
    minhashes = MinHash.bulk(
        [[w.encode("utf-8") for w in tokenize(r.text)] for r in reqs], num_perm=cfg.num_perm
    )
    indexes: dict[str, MinHashLSH] = {}
    for tenant in sorted({r.tenant_id for r in reqs}):
        indexes[tenant] = MinHashLSH(
            threshold=cfg.threshold,
            num_perm=cfg.num_perm,
            storage_config={
                "type": "redis",
                "basename": f"dsk:{tenant}".encode(),
                "redis": {"host": "127.0.0.1", "port": port},
            },
        )
    dups = 0
    t0 = time.perf_counter()
    for req, mh in zip(reqs, minhashes, strict=True):
        lsh = indexes[req.tenant_id]
        if lsh.query(mh):
            dups += 1
        elif req.claim_id not in lsh:  # keep its insert idempotent, as ours is
            lsh.insert(req.claim_id, mh)
    return len(reqs) / (time.perf_counter() - t0), dups


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claims", type=int, default=0, help="limit the corpus (0 = all)")
    ap.add_argument("--baseline-claims", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=3, help="alternating runs; best one counts")
    ap.add_argument("--lsh-max-miss", type=float, default=DedupConfig().lsh_max_miss)
    ap.add_argument("--shard-load", type=int, default=DedupConfig().redis_shard_load)
    add_data_argument(ap)
    args = ap.parse_args()

    cfg = DedupConfig(lsh_max_miss=args.lsh_max_miss, redis_shard_load=args.shard_load)
    reqs = build_stream(load_sentences(args.data), args.seed).requests
    if args.claims:
        reqs = reqs[: args.claims]
    texts = [r.text for r in reqs]
    base_n = min(args.baseline_claims, len(reqs))

    cold, warm = bench_signatures(texts, cfg)
    dsk_sig = bench_datasketch_signatures(texts[:base_n], cfg)
    print(
        f"claims: {len(reqs)} (baseline on the first {base_n}), batch {args.batch}, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus"
    )
    print(
        f"signatures: {cold:.1f} µs/claim cold token cache, {warm:.1f} µs/claim warm "
        f"(datasketch MinHash.bulk: {dsk_sig:.1f} µs/claim)"
    )

    with tempfile.TemporaryDirectory(prefix="gw-bench-redis-") as tmp:
        proc, port = start_redis(Path(tmp))
        url = f"redis://127.0.0.1:{port}/0"
        client = redis.Redis(port=port)
        try:
            # same claims for both, each on an empty server, alternating `--repeat` times;
            # best run of each (the machine is shared: the best run is the least disturbed).
            # memory = used_memory delta after the benchmark's own connections are closed
            dsk_rates, ours_rates = [], []
            for _ in range(args.repeat):
                client.flushall()
                before = used_memory(client)
                dsk_rate, dsk_dups = bench_datasketch(reqs[:base_n], cfg, port)
                dsk_rates.append(dsk_rate)
                dsk_per = (used_memory(client) - before) / (base_n - dsk_dups)
                client.flushall()
                before = used_memory(client)
                ours, same_dups, _ = asyncio.run(
                    bench_groundwire(reqs[:base_n], cfg, url, args.batch)
                )
                ours_rates.append(ours)
                ours_per_same = (used_memory(client) - before) / (base_n - same_dups)
            full_rates = []
            for _ in range(args.repeat):
                client.flushall()
                before = used_memory(client)
                rate, dups, indexed = asyncio.run(bench_groundwire(reqs, cfg, url, args.batch))
                full_rates.append(rate)
                per_memory = (used_memory(client) - before) / indexed
            keyspace = sum(
                int(client.memory_usage(k, samples=0) or 0) for k in client.scan_iter(count=1000)
            )
        finally:
            client.close()
            proc.terminate()
            proc.wait(timeout=10)

    ours_same, dsk_rate, rate = max(ours_rates), max(dsk_rates), max(full_rates)
    ratio = ours_same / dsk_rate
    print(
        f"runs (claims/s): groundwire {[round(x) for x in ours_rates]}, "
        f"datasketch {[round(x) for x in dsk_rates]}, full corpus {[round(x) for x in full_rates]}"
    )
    bands = build_dedup_index(cfg).bands
    print(
        f"check-and-insert, first {base_n} claims, empty server each, best of runs: groundwire "
        f"{ours_same:,.0f}/s, datasketch MinHashLSH+redis {dsk_rate:,.0f}/s -> {ratio:.1f}x"
    )
    print(
        f"redis bytes per indexed memory on those claims: groundwire {ours_per_same:.0f}, "
        f"datasketch {dsk_per:.0f}"
    )
    print(
        f"full corpus: {len(reqs)} claims, {dups} duplicates, {indexed} memories indexed, "
        f"{rate:,.0f} claims/s, used_memory {per_memory:.0f} B/memory, "
        f"MEMORY USAGE sum {keyspace / indexed:.0f} B/memory "
        f"(num_perm={cfg.num_perm}, bands x rows = {bands[0]} x {bands[1]})"
    )
    print(f"dedup_per_s={rate:.0f} vs_datasketch={ratio:.1f}x bytes_per_memory={per_memory:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
