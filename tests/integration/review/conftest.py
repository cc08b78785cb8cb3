"""Fixtures for review-queue tests: a Redis key prefix of the test's own on the shared
Redis, a signer whose key set the service trusts, the store, and the API in process
(httpx over ASGI: real Redis, real app, no sockets)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from groundwire.streams.review.api import Context, build_app
from groundwire.streams.review.auth import Authenticator, Sessions
from groundwire.streams.review.config import ReviewAuthConfig, ReviewConfig
from groundwire.streams.review.store import NewItem, ReviewStore
from groundwire.streams.settings import Settings
from tests.support.names import RUN
from tests.support.review import ADMIN_ROLE, Signer, flagged, record_bytes


@pytest.fixture
def signer() -> Signer:
    return Signer.new()


@pytest.fixture
def make_settings(signer: Signer, redis_url: str) -> Callable[..., Settings]:
    prefix = f"{RUN}:rv:{uuid.uuid4().hex[:10]}"

    def make(**review: Any) -> Settings:
        auth = ReviewAuthConfig(jwks=signer.jwks, admin_role=ADMIN_ROLE)
        cfg = ReviewConfig(redis_prefix=prefix, auth=auth, **review)
        return Settings(redis_url=redis_url, review=cfg)

    return make


@pytest.fixture
async def redis_client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(redis_url)
    yield client
    await client.aclose()


@pytest.fixture
async def settings(make_settings: Callable[..., Settings], redis_client: aioredis.Redis):
    s = make_settings()
    yield s
    async for key in redis_client.scan_iter(match=f"{s.review.redis_prefix}:*", count=1000):
        await redis_client.delete(key)


@pytest.fixture
def store(settings: Settings, redis_client: aioredis.Redis) -> ReviewStore:
    return ReviewStore(redis_client, settings.review)


async def _ready() -> tuple[bool, dict[str, Any]]:
    return True, {}


def app_for(settings: Settings, store: ReviewStore) -> Any:
    ctx = Context(
        settings=settings,
        store=store,
        sessions=Sessions(store.client, store.keys, settings.review.session_ttl_s),
        authenticator=Authenticator(settings.review.auth),
        readiness=_ready,
    )
    return build_app(ctx)


@pytest.fixture
async def api(settings: Settings, store: ReviewStore) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app_for(settings, store))
    async with httpx.AsyncClient(transport=transport, base_url="https://localhost") as client:
        yield client


@pytest.fixture
def enqueue(store: ReviewStore) -> Callable[..., Any]:
    """Queue flagged claims directly (what the feed does), returning the outcomes."""
    counter = iter(range(1_000_000))

    async def put(tenant: str, user: str, content: str, **kwargs: Any):
        result = flagged(tenant, user, content, **kwargs)
        item = NewItem(
            tenant_id=tenant,
            owner=user,
            claim_id=result.claim.claim_id,
            submitted_ms=int(result.routed_at.timestamp() * 1000),
            record=record_bytes(result),
            origin=f"test:0:{next(counter)}",
        )
        [outcome] = await store.enqueue([item])
        return outcome

    return put
