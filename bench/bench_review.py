"""Review queue speed: enqueue from the `review` topic, and list/approve latency under load.

Against the running broker and Redis of scripts/stack.sh (own topic prefix, own Redis key
prefix, both removed afterwards):

* enqueue: `--claims` flagged routed records are published to a fresh `review` topic, and
  the feed stage (streams/review/feed.py) runs under the transactional runner, in this
  process, until every record is committed: consume, parse, one Lua call per batch into
  Redis, audit events and offsets in one Kafka transaction per batch. Timed from the
  first to the last commit.
* baseline, same run: the same items written to Redis with plain pipelined commands
  (HSET item, three ZADDs, HSET claim state; no Lua, no checks, no Kafka): what a queue
  with no guarantees would cost. The ratio is enqueue / baseline.
* reviewers: the service (`groundwire review serve --components api`) in a child process
  on loopback; `--reviewers` concurrent reviewers, each with its own token and queue,
  each repeating: list (limit 20), think, approve its newest claim, think. Think time is
  uniform in [0.5, 1.5] s (people read before they click), so 200 reviewers offer about
  200 requests/s; latency is measured by the client per request, over `--duration` s
  after 3 s of warm-up (connections opened, each token verified once).

    python bench/bench_review.py [--claims N] [--reviewers R] [--duration S] [--batch B]

Last line: review_enqueue_per_s=... baseline_per_s=... ratio=... list_p99_ms=... approve_p99_ms=...
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import aiohttp
import httpx
import orjson
import redis.asyncio as aioredis
from confluent_kafka import Producer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from groundwire.streams.admin import create_topics, delete_topics
from groundwire.streams.review.config import ReviewAuthConfig, ReviewConfig
from groundwire.streams.review.feed import ReviewFeedStage
from groundwire.streams.review.keys import Keys, member, new_queue_id
from groundwire.streams.review.store import NewItem, ReviewStore
from groundwire.streams.runner import StageRunner
from groundwire.streams.settings import Settings
from tests.support.review import Signer, flagged, record_bytes


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def records(n: int, tenants: int, users: int) -> list[tuple[str, bytes]]:
    out = []
    for i in range(n):
        tenant = f"t{i % tenants}"
        r = flagged(tenant, f"u{(i // tenants) % users}", f"claim {i} may time out under load")
        out.append((tenant, record_bytes(r)))
    return out


async def baseline(
    client: aioredis.Redis, cfg: ReviewConfig, recs: list[tuple[str, bytes]]
) -> float:
    """Plain pipelined writes of the same items: no Lua, no checks, no Kafka."""
    keys = Keys(cfg.redis_prefix + ":base", 1)
    started = time.perf_counter()
    for at in range(0, len(recs), 500):
        pipe = client.pipeline(transaction=False)
        for j, (tenant, body) in enumerate(recs[at : at + 500]):
            qid = new_queue_id()
            m = member(1_700_000_000_000 + at + j, qid)
            pipe.hset(keys.item(tenant, qid), mapping={"t": tenant, "o": "u", "d": body, "m": m})
            pipe.zadd(keys.owner_zset(tenant, "u"), {m: 0})
            pipe.zadd(keys.tenant_zset(tenant), {m: 0})
            pipe.zadd(keys.all(0), {m: 0})
            pipe.hset(keys.claim(tenant, qid), mapping={"st": "queued", "q": qid})
        await pipe.execute()
    return len(recs) / (time.perf_counter() - started)


async def enqueue(settings: Settings, store: ReviewStore, recs: list[tuple[str, bytes]]) -> float:
    producer = Producer({"bootstrap.servers": settings.bootstrap_servers, "linger.ms": 20})
    for tenant, body in recs:
        while True:
            try:
                producer.produce(settings.topics.review, body, tenant.encode())
                break
            except BufferError:
                producer.poll(0.05)
    assert producer.flush(60) == 0
    stop = asyncio.Event()
    runner = StageRunner(settings, ReviewFeedStage(settings, store), stop)
    task = asyncio.create_task(runner.run())
    first: float | None = None
    deadline = time.monotonic() + 600
    while runner.progress.committed_records < len(recs) and time.monotonic() < deadline:
        if first is None and runner.progress.committed_records:
            first = time.perf_counter() - 0.0
            first_count = runner.progress.committed_records
        await asyncio.sleep(0.01)
    done = time.perf_counter()
    stop.set()
    await task
    assert runner.progress.committed_records >= len(recs), "the feed did not finish"
    assert first is not None
    return (len(recs) - first_count) / max(1e-9, done - first)


async def reviewers(
    settings: Settings, store: ReviewStore, n: int, duration: float
) -> dict[str, list[float]]:
    signer = Signer.new()
    per = 40  # claims queued per reviewer (more than a run approves)
    items = []
    for r in range(n):
        for k in range(per):
            f = flagged("bench", f"rev{r}", f"reviewer {r} claim {k} may fail")
            items.append(NewItem("bench", f"rev{r}", f.claim.claim_id, 1_700_000_000_000 + k,
                                 record_bytes(f), f"b:0:{r}:{k}"))  # fmt: skip
    for at in range(0, len(items), 1000):
        await store.enqueue(items[at : at + 1000])
    port = _free_port()
    env = {
        **os.environ,
        "GROUNDWIRE_REDIS_URL": settings.redis_url.get_secret_value(),
        "GROUNDWIRE_METRICS_PORT": "0",
        "GROUNDWIRE_REVIEW__PORT": str(port),
        "GROUNDWIRE_REVIEW__REDIS_PREFIX": settings.review.redis_prefix,
        "GROUNDWIRE_REVIEW__AUTH__JWKS": signer.jwks,
        "GROUNDWIRE_REVIEW__RATE_PER_S": "1000",
        "GROUNDWIRE_REVIEW__MAX_PER_OWNER": "100",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "groundwire.streams.cli", "review", "serve", "--components", "api",
         "--log-level", "warning"],
        env=env,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        lat: dict[str, list[float]] = {"list": [], "approve": []}
        # aiohttp, not httpx: the load generator shares the machine's two cores with the
        # service, and aiohttp costs it a fraction of the CPU per request.
        connector = aiohttp.TCPConnector(limit=n + 10)
        async with aiohttp.ClientSession(url, connector=connector) as client:
            # The first seconds open the connections (HTTP and the server's Redis pool) and
            # verify each reviewer's token once: warm-up, not counted.
            warm = time.monotonic() + 3.0
            end = warm + duration

            async def one(r: int) -> None:
                headers = {"Authorization": f"Bearer {signer.token('bench', f'rev{r}')}"}
                rng = random.Random(r)
                await asyncio.sleep(rng.uniform(0, 1.0))  # reviewers do not start in step
                while time.monotonic() < end:
                    t0 = time.perf_counter()
                    async with client.get("/api/v1/pending?limit=20", headers=headers) as page:
                        body = await page.read()
                    if time.monotonic() > warm:
                        lat["list"].append(time.perf_counter() - t0)
                    assert page.status == 200, body
                    await asyncio.sleep(rng.uniform(0.5, 1.5))
                    newest = orjson.loads(body)["items"][0]["queue_id"]
                    t0 = time.perf_counter()
                    path = f"/api/v1/pending/{newest}/approve"
                    async with client.post(path, headers=headers) as done:
                        answer = await done.read()
                    if time.monotonic() > warm:
                        lat["approve"].append(time.perf_counter() - t0)
                    assert done.status == 200, answer
                    await asyncio.sleep(rng.uniform(0.5, 1.5))

            await asyncio.gather(*(one(r) for r in range(n)))
        return lat
    finally:
        proc.terminate()
        proc.wait(20)


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--claims", type=int, default=30_000)
    ap.add_argument("--reviewers", type=int, default=200)
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--batch", type=int, default=2000, help="GROUNDWIRE_BATCH_SIZE of the feed")
    args = ap.parse_args()
    tag = uuid.uuid4().hex[:8]
    settings = Settings(
        bootstrap_servers=os.environ.get("GROUNDWIRE_BOOTSTRAP_SERVERS", "127.0.0.1:9092"),
        redis_url=os.environ.get("GROUNDWIRE_REDIS_URL", "redis://127.0.0.1:6379/0"),
        topic_prefix=f"gwbench.{tag}.",
        partitions=6,
        consumer_group=f"gwbench-{tag}",
        worker_id=f"bench-{tag}",
        metrics_port=0,
        batch_size=args.batch,
        review=ReviewConfig(
            redis_prefix=f"gwbench:rv:{tag}",
            max_total=1_000_000,
            max_per_owner=1_000_000,
            auth=ReviewAuthConfig(jwks='{"keys": []}'),
        ),
    )
    create_topics(settings)
    client = aioredis.Redis.from_url(settings.redis_url.get_secret_value())
    store = ReviewStore(client, settings.review)
    try:
        recs = records(args.claims, tenants=50, users=20_000)
        base = await baseline(client, settings.review, recs)
        rate = await enqueue(settings, store, recs)
        print(f"enqueue from the topic: {rate:,.0f} claims/s; plain Redis pipeline: {base:,.0f}/s")
        lat = await reviewers(settings, store, args.reviewers, args.duration)
        for kind, values in lat.items():
            ms = [v * 1000 for v in values]
            print(
                f"{kind}: n={len(ms)} p50={statistics.median(ms):.1f}ms p99={_pct(ms, 0.99):.1f}ms"
            )
        list_p99 = _pct([v * 1000 for v in lat["list"]], 0.99)
        approve_p99 = _pct([v * 1000 for v in lat["approve"]], 0.99)
        print(
            f"review_enqueue_per_s={rate:.0f} baseline_per_s={base:.0f} ratio={rate / base:.2f} "
            f"list_p99_ms={list_p99:.1f} approve_p99_ms={approve_p99:.1f}"
        )
    finally:
        async for key in client.scan_iter(match=f"{settings.review.redis_prefix}*", count=5000):
            await client.delete(key)
        await client.aclose()
        delete_topics(settings)


if __name__ == "__main__":
    asyncio.run(main())
