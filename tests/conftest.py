"""Shared fixtures.

Integration tests talk to the real services started by `scripts/stack.sh start` (or any
reachable Kafka/Redis named by GROUNDWIRE_BOOTSTRAP_SERVERS / GROUNDWIRE_REDIS_URL).
They fail, rather than skip, when the services are missing: a green run must mean the
pipeline was exercised.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import pytest

from tests.support.names import RUN, STALE_ROOT


@pytest.fixture(scope="session")
def bootstrap_servers() -> str:
    return os.environ.get("GROUNDWIRE_BOOTSTRAP_SERVERS", "127.0.0.1:9092")


# Where this run writes in Redis: its own prefixes, and the claim ledgers of its topic
# prefixes under the ledger's default prefix (tests/support/names.py).
TEST_KEY_PREFIXES = (RUN, f"gw:claims:{RUN}.")
# Keys of runs that could not clean up (killed) and nobody has touched for this long.
STALE_AFTER_S = 6 * 3600


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The Redis the integration tests share. Their keys are unlinked when the session
    ends: most carry no expiry (they stand for memories), and a developer's Redis that
    had kept every run's keys (~186,000 of them) stalled a benchmark sharing it."""
    url = os.environ.get("GROUNDWIRE_REDIS_URL", "redis://127.0.0.1:6379/0")
    yield url
    import redis

    from tests.support.redis_keys import drop_idle_keys, drop_keys

    # a server that is gone (a test stopped it) has nothing left to tidy
    with contextlib.suppress(redis.RedisError, ValueError):
        drop_keys(url, TEST_KEY_PREFIXES)
        for root in (STALE_ROOT, f"gw:claims:{STALE_ROOT}"):
            drop_idle_keys(url, root, STALE_AFTER_S)


@pytest.fixture
def unique_prefix() -> str:
    """A topic prefix of its own, so tests sharing one broker never see each other's records."""
    return f"{RUN}.{uuid.uuid4().hex[:10]}."


@pytest.fixture
def unique_tenant() -> str:
    return f"tenant-{uuid.uuid4().hex[:12]}"
