"""Fixtures for the answers endpoint: the review API in process (httpx over ASGI) with
real Redis (sessions, the validated cache, denied-request audit) and a real Kafka
recorder writing to topics of the test's own."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from groundwire.streams.admin import create_topics, delete_topics
from groundwire.streams.answers.api import AnswerEndpoint
from groundwire.streams.answers.factory import answer_limits, build_answer_scorer
from groundwire.streams.answers.recorder import Recorder
from groundwire.streams.review.api import Context, build_app
from groundwire.streams.review.auth import Authenticator, Sessions
from groundwire.streams.review.config import ReviewAuthConfig, ReviewConfig
from groundwire.streams.review.store import ReviewStore
from groundwire.streams.settings import Settings
from tests.support.names import RUN
from tests.support.review import ADMIN_ROLE, Signer


@pytest.fixture
def signer() -> Signer:
    return Signer.new()


@pytest.fixture
def make_settings(
    signer: Signer, redis_url: str, bootstrap_servers: str
) -> Callable[..., Settings]:
    run = uuid.uuid4().hex[:10]

    def make(**faithfulness: Any) -> Settings:
        faithfulness.setdefault("enabled", True)
        cache = faithfulness.setdefault("cache", {})
        cache.setdefault("redis_prefix", f"{RUN}:faith:{run}")
        return Settings(
            bootstrap_servers=bootstrap_servers,
            redis_url=redis_url,
            topic_prefix=f"{RUN}.ans.{run}.",
            partitions=2,
            worker_id=f"w-{run}",
            consumer_group=f"g-{run}",
            kafka_call_timeout_s=5.0,
            review=ReviewConfig(
                redis_prefix=f"{RUN}:rv:{run}",
                auth=ReviewAuthConfig(jwks=signer.jwks, admin_role=ADMIN_ROLE),
            ),
            guards={"faithfulness": faithfulness},
        )

    return make


async def _ready() -> tuple[bool, dict[str, Any]]:
    return True, {}


class Service:
    """The app and what it writes; `start(settings)` builds one, `close()` ends it."""

    def __init__(self, redis_url: str) -> None:
        self.redis_url = redis_url
        self.stop = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.endpoints: list[AnswerEndpoint] = []
        self.settings: list[Settings] = []

    async def start(
        self, settings: Settings, kafka_settings: Settings | None = None
    ) -> httpx.AsyncClient:
        """The app; its recorder writes with `kafka_settings` (default: `settings`)."""
        failed = [o for o in create_topics(settings) if o.status == "failed"]
        assert not failed, failed
        self.settings.append(settings)
        client = aioredis.Redis.from_url(self.redis_url)
        store = ReviewStore(client, settings.review)
        recorder = Recorder(kafka_settings or settings)
        endpoint = AnswerEndpoint(
            settings, build_answer_scorer(settings), recorder, answer_limits(settings)
        )
        self.endpoints.append(endpoint)
        self.tasks.append(asyncio.create_task(recorder.run(self.stop)))
        ctx = Context(
            settings=settings,
            store=store,
            sessions=Sessions(client, store.keys, settings.review.session_ttl_s),
            authenticator=Authenticator(settings.review.auth),
            readiness=_ready,
            answers=endpoint,
        )
        transport = httpx.ASGITransport(app=build_app(ctx))
        return httpx.AsyncClient(transport=transport, base_url="https://localhost")

    async def close(self) -> None:
        self.stop.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for endpoint in self.endpoints:
            await endpoint.scorer.aclose()
        client = aioredis.Redis.from_url(self.redis_url)
        for settings in self.settings:
            for prefix in (
                settings.review.redis_prefix,
                settings.guards.faithfulness.cache.redis_prefix,
            ):
                async for key in client.scan_iter(match=f"{prefix}:*", count=1000):
                    await client.delete(key)
            delete_topics(settings)
        await client.aclose()


@pytest.fixture
async def service(redis_url: str) -> AsyncIterator[Service]:
    svc = Service(redis_url)
    yield svc
    await svc.close()
