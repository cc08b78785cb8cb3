"""A tarpit address costs one `url_timeout_s`, not one per URL cited on it per minute."""

from __future__ import annotations

import ipaddress
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from groundwire.guards.citations.backoff import TimeoutBackoff
from groundwire.guards.citations.url import UrlVerifier


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_window_doubles_per_timeout_and_an_answer_forgets_it() -> None:
    clock = _Clock()
    backoff = TimeoutBackoff(first_s=60, max_s=200, clock=clock)
    ip = ipaddress.ip_address("93.184.216.34")
    assert backoff.skipped_for(ip) == 0
    windows = []
    for _ in range(4):
        backoff.timed_out(ip)
        windows.append(backoff.skipped_for(ip))
        clock.now += 1_000  # the window passed; the next check times out again
    assert windows == [60, 120, 200, 200]
    backoff.answered(ip)
    backoff.timed_out(ip)
    assert backoff.skipped_for(ip) == 60  # the streak starts over


def test_memory_is_bounded_and_ipv6_counts_by_its_64() -> None:
    backoff = TimeoutBackoff(max_entries=3)
    for n in range(10):
        backoff.timed_out(ipaddress.ip_address(f"93.184.216.{n}"))
    assert len(backoff) == 3
    backoff.timed_out(ipaddress.ip_address("2001:db8:1:2::1"))
    assert backoff.skipped_for(ipaddress.ip_address("2001:db8:1:2:ffff::9")) > 0
    assert backoff.skipped_for(ipaddress.ip_address("2001:db8:1:3::1")) == 0


class _Tarpit(BaseHTTPRequestHandler):
    """Accepts every request and answers nothing for 3 s."""

    requests = 0

    def log_message(self, *args: object) -> None:
        pass

    def do_HEAD(self) -> None:
        type(self).requests += 1
        time.sleep(3)


def test_a_tarpit_address_is_skipped_for_other_urls_on_it() -> None:
    """A timed-out verdict is cached 60 s per URL, so each distinct URL on a tarpit (any
    path, any name pointing at it) cost the batch the whole timeout again."""
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Tarpit)
    threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True).start()
    base = f"http://127.0.0.1:{srv.server_address[1]}"
    try:
        v = UrlVerifier(timeout_s=0.5, allowlist=["127.0.0.1"])
        first = v.verify(f"{base}/1")
        assert (first.verified, first.transient) == (False, True)
        results = [v.verify(f"{base}/{n}") for n in range(2, 12)]
    finally:
        srv.shutdown()
        srv.server_close()
    assert {(r.verified, r.transient, r.reason) for r in results} == {
        (False, True, "fetch failed: address timed out recently")
    }
    assert _Tarpit.requests == 1
