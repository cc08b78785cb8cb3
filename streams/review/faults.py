"""Named points in the review service where a fault-injection test may kill the process.

Production code calls `point(name)` at each place where a crash must not lose or double a
decision; by default that does nothing. The fault-injection test
(tests/integration/review/test_review_faults.py) starts the service through a launcher
that installs a hook which SIGKILLs the process at one named point, then counts records.
"""

from __future__ import annotations

from collections.abc import Callable

POINTS = (
    "decide.after_redis",  # the decision is in Redis (item removed, outbox entry written)
    "feed.after_redis",  # the feed's batch is in Redis, its Kafka transaction not committed
    "relay.after_produce",  # the relay produced the batch's records, transaction open
    "relay.before_commit",  # ... and its position record; commit not yet sent
    "relay.after_commit",  # committed; the outbox entries are not yet trimmed
)

_hook: Callable[[str], None] | None = None


def install(hook: Callable[[str], None] | None) -> None:
    global _hook
    _hook = hook


def point(name: str) -> None:
    if _hook is not None:
        _hook(name)
