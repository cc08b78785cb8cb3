"""The one way groundwire opens a Redis connection: single server or Redis Cluster, every
wait bounded. Shared by the dedup index and the citation-verdict cache."""

from __future__ import annotations

from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff


def connect(
    url: str,
    *,
    socket_timeout_s: float,
    connect_timeout_s: float,
    retries: int,
    cluster: bool = False,
) -> aioredis.Redis | RedisCluster:
    """A client whose every wait is bounded, so a dead Redis costs a worker seconds, not hours.

    `cluster`: the URL names any one node of a Redis Cluster; the client discovers the rest
    and routes each command by its key's slot (every key of a tenant shares one slot)."""
    options: dict[str, Any] = {
        "decode_responses": False,
        "socket_timeout": socket_timeout_s,
        "socket_connect_timeout": connect_timeout_s,
        "retry": Retry(ExponentialBackoff(cap=0.2, base=0.02), retries),
    }
    if cluster:
        return RedisCluster.from_url(url, **options)
    return aioredis.Redis.from_url(url, health_check_interval=0, **options)
