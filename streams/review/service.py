"""`groundwire review serve`: the API and page, the feed and the relay in one process.

Each part is an asyncio task sharing one Redis client and one stop event; any of them may
be left out (`components`), so a deployment can run several API replicas and let the
feed (a consumer group) and the relay (a lease per shard) spread over them. SIGTERM stops
everything: the HTTP server finishes its requests, the feed its transaction, the relay
its batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as aioredis
import uvicorn
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

from groundwire.guards.dedup.index import build_dedup_index
from groundwire.guards.redis_client import connect
from groundwire.metrics import review as review_metrics
from groundwire.streams.answers.api import AnswerEndpoint
from groundwire.streams.answers.factory import answer_limits, build_answer_scorer
from groundwire.streams.answers.recorder import Recorder
from groundwire.streams.review.api import Context, build_app
from groundwire.streams.review.auth import Authenticator, Sessions
from groundwire.streams.review.feed import ReviewFeedStage
from groundwire.streams.review.relay import Relay
from groundwire.streams.review.store import RedisClient, ReviewStore
from groundwire.streams.runner import StageRunner
from groundwire.streams.settings import Settings

log = logging.getLogger(__name__)

COMPONENTS = ("api", "feed", "relay")


def redis_client(settings: Settings) -> RedisClient:
    """A bounded pool: a request that finds every connection busy waits for one (up to
    `review.redis_timeout_s`) instead of opening more. Redis Cluster: the shared connect()
    with the same bound per node."""
    cfg = settings.review
    url = settings.redis_url.get_secret_value()
    if settings.redis_cluster:
        return connect(
            url,
            socket_timeout_s=cfg.redis_timeout_s,
            connect_timeout_s=cfg.redis_timeout_s,
            retries=1,
            cluster=True,
        )
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=cfg.redis_max_connections,
        timeout=cfg.redis_timeout_s,
        socket_timeout=cfg.redis_timeout_s,
        socket_connect_timeout=cfg.redis_timeout_s,
        retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), 1),
    )
    return aioredis.Redis(connection_pool=pool)


@dataclass
class Service:
    settings: Settings
    components: frozenset[str]
    store: ReviewStore
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    feed: StageRunner | None = None
    relays: list[Relay] = field(default_factory=list)
    server: uvicorn.Server | None = None
    answers: AnswerEndpoint | None = None

    async def readiness(self) -> tuple[bool, dict[str, Any]]:
        detail: dict[str, Any] = {}
        try:
            redis_ok = await asyncio.wait_for(
                self.store.ping(), self.settings.review.redis_timeout_s
            )
        except Exception:
            redis_ok = False
        detail["redis"] = "ok" if redis_ok else "unreachable"
        ok = redis_ok
        if self.feed is not None:
            detail["feed"] = self.feed.progress.state
            ok = ok and self.feed.progress.state == "running"
        if self.relays:
            detail["relay"] = {str(r.shard): r.state for r in self.relays}
            ok = ok and all(r.state in ("running", "standby") for r in self.relays)
        if self.answers is not None:
            detail["answers"] = self.answers.recorder.state
            ok = ok and self.answers.recorder.state == "running"
        return ok, detail

    async def gauges(self) -> None:
        interval = self.settings.review.gauge_interval_s
        while not self.stop.is_set():
            try:
                depth, oldest = await self.store.depth()
                review_metrics.set_queue(depth, oldest, await self.store.outbox_length())
            except Exception as exc:
                log.warning("review gauges: %s", exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), interval)


def build_service(settings: Settings, components: Iterable[str] = COMPONENTS) -> Service:
    chosen = frozenset(components)
    unknown = chosen - set(COMPONENTS)
    if unknown or not chosen:
        raise ValueError(f"components must be some of {', '.join(COMPONENTS)}")
    store = ReviewStore(redis_client(settings), settings.review)
    return Service(settings, chosen, store)


async def run(service: Service, *, install_signals: bool = True) -> None:
    settings = service.settings
    cfg = settings.review
    loop = asyncio.get_running_loop()
    if install_signals:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, service.stop.set)
    tasks: list[asyncio.Task[None]] = [asyncio.create_task(service.gauges())]
    index = None
    if "feed" in service.components:
        stage = ReviewFeedStage(settings, service.store)
        service.feed = StageRunner(settings, stage, service.stop)
        tasks.append(asyncio.create_task(service.feed.run()))
    if "relay" in service.components:
        dedup = settings.guards.dedup
        if dedup.enabled:
            index = build_dedup_index(
                dedup, settings.redis_url.get_secret_value(), cluster=settings.redis_cluster
            )
        holder = settings.worker_id  # stable: a restarted service takes its lease back at once
        for shard in range(cfg.shards):
            relay = Relay(settings, service.store, shard, holder, index)
            service.relays.append(relay)
            tasks.append(asyncio.create_task(relay.run(service.stop)))
    if "api" in service.components:
        keys = service.store.keys
        ctx = Context(
            settings=settings,
            store=service.store,
            sessions=Sessions(service.store.client, keys, cfg.session_ttl_s),
            authenticator=Authenticator(cfg.auth),
            readiness=service.readiness,
            answers=_answers(service, tasks),
        )
        config = uvicorn.Config(
            build_app(ctx),
            host=cfg.host,
            port=cfg.port,
            log_level="warning",
            http="httptools",
            access_log=False,
            server_header=False,
            proxy_headers=False,
            limit_concurrency=2_000,
            timeout_keep_alive=15,
            h11_max_incomplete_event_size=16_384,
        )
        service.server = uvicorn.Server(config)
        tasks.append(asyncio.create_task(_serve(service)))
    log.info("review service running: %s", ", ".join(sorted(service.components)))
    try:
        await service.stop.wait()
    finally:
        if service.server is not None:
            service.server.should_exit = True
        await asyncio.gather(*tasks, return_exceptions=True)
        if index is not None:
            await index.aclose()
        if service.answers is not None:
            await service.answers.scorer.aclose()
        await service.store.client.aclose()


def _answers(service: Service, tasks: list[asyncio.Task[None]]) -> AnswerEndpoint | None:
    """POST /v1/answers:score when read-time faithfulness is enabled (opt-in): its scorer,
    and the Kafka writer of its scores running beside the other tasks."""
    settings = service.settings
    if not settings.guards.faithfulness.enabled:
        return None
    recorder = Recorder(settings)
    endpoint = AnswerEndpoint(
        settings, build_answer_scorer(settings), recorder, answer_limits(settings)
    )
    service.answers = endpoint
    tasks.append(asyncio.create_task(recorder.run(service.stop)))
    return endpoint


async def _serve(service: Service) -> None:
    server = service.server
    assert server is not None
    try:
        await server._serve()  # without uvicorn's own signal capture: `run` owns signals
    finally:
        service.stop.set()
