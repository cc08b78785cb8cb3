"""Shared fixtures.

Integration tests talk to the real services started by `scripts/stack.sh start` (or any
reachable Kafka/Redis named by GROUNDWIRE_BOOTSTRAP_SERVERS / GROUNDWIRE_REDIS_URL).
They fail, rather than skip, when the services are missing: a green run must mean the
pipeline was exercised.
"""

from __future__ import annotations

import os
import uuid

import pytest


@pytest.fixture(scope="session")
def bootstrap_servers() -> str:
    return os.environ.get("GROUNDWIRE_BOOTSTRAP_SERVERS", "127.0.0.1:9092")


@pytest.fixture(scope="session")
def redis_url() -> str:
    return os.environ.get("GROUNDWIRE_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def unique_prefix() -> str:
    """A topic prefix of its own, so tests sharing one broker never see each other's records."""
    return f"gwtest.{uuid.uuid4().hex[:10]}."


@pytest.fixture
def unique_tenant() -> str:
    return f"tenant-{uuid.uuid4().hex[:12]}"
