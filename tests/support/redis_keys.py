"""Deleting what a test run or a benchmark wrote to a Redis that others may share."""

from __future__ import annotations

import redis


def drop_keys(redis_url: str, prefixes: tuple[str, ...]) -> int:
    """Unlink every key under `prefixes` (the caller's own) and return how many. SCAN and
    UNLINK in batches, so a large namespace neither blocks the server nor one reply."""
    client = redis.Redis.from_url(redis_url)
    dropped = 0
    try:
        for prefix in prefixes:
            batch: list[bytes] = []
            for key in client.scan_iter(match=f"{prefix}*", count=5000):
                batch.append(key)
                if len(batch) >= 1000:
                    dropped += client.unlink(*batch)
                    batch = []
            if batch:
                dropped += client.unlink(*batch)
    finally:
        client.close()
    return dropped


def drop_idle_keys(redis_url: str, prefix: str, idle_s: float) -> int:
    """Unlink the keys under `prefix` that nobody has read or written for `idle_s`: what
    runs that were killed before their cleanup left, never a live run's keys."""
    client = redis.Redis.from_url(redis_url)
    dropped = 0
    try:
        for key in client.scan_iter(match=f"{prefix}*", count=5000):
            idle = client.object("idletime", key)
            if isinstance(idle, int) and idle >= idle_s:
                dropped += client.unlink(key)
    finally:
        client.close()
    return dropped
