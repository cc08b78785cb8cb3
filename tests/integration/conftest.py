"""Fixtures for integration tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.redis_server import RedisClusterServer, RedisServer


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server of the test's own (temp dir, free port, AOF on), for tests that stop
    and restart Redis; the shared server is never touched."""
    server = RedisServer(tmp_path / "own-redis")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisClusterServer]:
    """A Redis Cluster of three primaries, shared by the tests of one module."""
    cluster = RedisClusterServer(tmp_path_factory.mktemp("redis-cluster"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
