"""Fixtures for integration tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.redis_server import RedisServer


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server of the test's own (temp dir, free port, AOF on), for tests that stop
    and restart Redis; the shared server is never touched."""
    server = RedisServer(tmp_path / "own-redis")
    server.start()
    yield server
    server.stop()
