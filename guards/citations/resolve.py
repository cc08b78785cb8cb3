"""Name resolution for outbound checks, bounded in time and in threads.

The system resolver (`getaddrinfo`) blocks its thread for as long as the resolver's own
timeouts allow (glibc: 5 s x 2 attempts per nameserver and search domain by default), and
a claim chooses the name: a domain whose nameservers never answer would hold a URL check,
and the screen batch behind it, outside the check's deadline. A blocked `getaddrinfo`
cannot be cancelled, so the bound is built around it:

* lookups run on a small pool of threads of their own (`max_threads`), never on the
  caller's thread, so the caller can stop waiting;
* the caller waits at most the time left on its deadline (`deadline.within`), or
  `timeout_s` without one, then fails the check as transient (`ResolveUnavailable`):
  a verdict that says nothing about the URL and is cached only briefly;
* at most `max_pending` lookups may be queued or running, counted until each lookup
  really ends (not until its caller gave up), so names that never answer can pin at most
  `max_threads` threads and `max_pending` queued calls; past that a lookup fails at once,
  transient too. That is the price of the bound: while someone cites silent names fast
  enough to keep the cap full, other URL checks fail as transient (and are retried a
  minute later) instead of every screen batch waiting on the resolver.

One pool serves the whole process (`system_resolver()`): DNS threads are a process
resource, and a cap per verifier would multiply with the number of verifiers.
"""

from __future__ import annotations

import concurrent.futures
import socket
import threading
from collections.abc import Callable

from groundwire.guards.citations.deadline import time_left

__all__ = ["BoundedResolver", "ResolveUnavailable", "getaddrinfo_lookup", "system_resolver"]

Lookup = Callable[[str, int], list[str]]

MAX_THREADS = 8
MAX_PENDING = 32
TIMEOUT_S = 5.0


class ResolveUnavailable(Exception):
    """The name could not be resolved in time, or too many lookups are in flight: a
    transient failure, which says nothing about whether the name exists. Not an OSError,
    so no handler of resolver errors can take it for "the name does not exist"."""


def getaddrinfo_lookup(host: str, port: int) -> list[str]:
    """The system resolver's addresses for `host`, each once, in its order."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        if exc.errno == socket.EAI_AGAIN:  # "try again": the resolver, not the name
            raise ResolveUnavailable("name resolution failed temporarily") from exc
        raise
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class BoundedResolver:
    """A `Resolver` (host, port -> addresses) that never waits past the caller's deadline
    and never holds more than `max_threads` threads and `max_pending` lookups."""

    def __init__(
        self,
        lookup: Lookup = getaddrinfo_lookup,
        *,
        max_threads: int = MAX_THREADS,
        max_pending: int = MAX_PENDING,
        timeout_s: float = TIMEOUT_S,
    ) -> None:
        if max_pending < max_threads:
            raise ValueError("max_pending must be at least max_threads")
        self._lookup = lookup
        self._timeout_s = timeout_s
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_threads, thread_name_prefix="gw-resolve"
        )
        self._slots = threading.BoundedSemaphore(max_pending)

    def __call__(self, host: str, port: int) -> list[str]:
        if not self._slots.acquire(blocking=False):
            raise ResolveUnavailable("too many name lookups in flight")
        try:
            future = self._pool.submit(self._lookup, host, port)
        except BaseException:
            self._slots.release()
            raise
        # the slot is freed when the lookup ends, whoever still waits for it
        future.add_done_callback(lambda _done: self._slots.release())
        left = time_left()
        wait_s = self._timeout_s if left is None else max(0.0, min(left, self._timeout_s))
        try:
            return future.result(wait_s)
        except concurrent.futures.TimeoutError:
            raise ResolveUnavailable("name resolution timed out") from None


_shared: BoundedResolver | None = None
_shared_lock = threading.Lock()


def system_resolver() -> BoundedResolver:
    """The process's one bounded resolver over `getaddrinfo` (created on first use)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = BoundedResolver()
        return _shared
