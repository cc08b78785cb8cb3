"""Name resolution is bounded: a lookup never outlasts the check's deadline, and names
that never answer pin a capped number of threads, after which checks fail as transient."""

from __future__ import annotations

import threading
import time

import pytest

from groundwire.guards.citations.deadline import within
from groundwire.guards.citations.resolve import (
    BoundedResolver,
    ResolveUnavailable,
    system_resolver,
)
from groundwire.guards.citations.ssrf import SsrfGuard
from groundwire.guards.citations.url import UrlVerifier


class _Silent:
    """A resolver whose names never answer until `release` (a tarpit nameserver)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = 0

    def __call__(self, host: str, port: int) -> list[str]:
        self.calls += 1
        self.release.wait(10)
        return ["93.184.216.34"]


def test_a_lookup_ends_at_the_callers_deadline() -> None:
    silent = _Silent()
    resolve = BoundedResolver(silent, max_threads=2, max_pending=4, timeout_s=5.0)
    started = time.monotonic()
    with within(0.3), pytest.raises(ResolveUnavailable, match="timed out"):
        resolve("silent.example", 443)
    assert time.monotonic() - started < 1.0
    silent.release.set()


def test_stuck_lookups_are_capped_and_the_cap_fails_fast() -> None:
    """Callers that gave up still hold their slot until the lookup really ends, so names
    that never answer cannot pile up threads; past the cap a lookup fails at once."""
    silent = _Silent()
    resolve = BoundedResolver(silent, max_threads=1, max_pending=2, timeout_s=0.1)
    for _ in range(2):
        with pytest.raises(ResolveUnavailable, match="timed out"):
            resolve("silent.example", 443)
    # "too many", not "timed out": the lookup past the cap was refused without waiting
    # for a slot (how quickly is a speed, not asserted here)
    with pytest.raises(ResolveUnavailable, match="too many"):
        resolve("fine.example", 443)
    assert silent.calls == 1  # one thread: the second lookup is still queued
    silent.release.set()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # both lookups end and free their slots
        try:
            assert resolve("fine.example", 443) == ["93.184.216.34"]
            break
        except ResolveUnavailable:
            time.sleep(0.05)
    else:
        pytest.fail("slots were not freed when the lookups ended")


def test_a_url_check_of_a_silent_name_is_transient_and_bounded() -> None:
    """Name resolution was outside `url_timeout_s`: a name whose nameservers never answer
    held the check (and its screen batch) for the resolver's own timeouts."""
    silent = _Silent()
    verifier = UrlVerifier(timeout_s=0.5, resolver=BoundedResolver(silent, timeout_s=5.0))
    started = time.monotonic()
    verdict = verifier.verify("https://silent.example/page")
    assert time.monotonic() - started < 1.5
    assert (verdict.verified, verdict.transient) == (False, True)
    assert verdict.reason == "fetch failed: name resolution timed out"
    silent.release.set()


def test_the_default_resolver_is_the_shared_bounded_one() -> None:
    assert SsrfGuard()._resolve is system_resolver()
    assert isinstance(system_resolver(), BoundedResolver)


async def test_the_webhook_timeout_covers_name_resolution() -> None:
    """The webhook resolved its name in the event loop, before its timeout started: a
    slow lookup blocked the loop (every other request of the process) for its length."""
    from groundwire.guards.config import RegenerateConfig
    from groundwire.guards.faithfulness.regenerate import RegenerationFailed, WebhookRegenerator
    from tests.unit.guards.faithfulness.test_regenerate import REQUEST

    silent = _Silent()
    cfg = RegenerateConfig(webhook_url="https://hooks.example.com/r", webhook_timeout_s=0.5)
    regen = WebhookRegenerator(cfg, resolver=BoundedResolver(silent, timeout_s=5.0))
    started = time.monotonic()
    with pytest.raises(RegenerationFailed, match="timed out"):
        await regen.regenerate(REQUEST)
    assert time.monotonic() - started < 1.5
    silent.release.set()
    await regen.aclose()
