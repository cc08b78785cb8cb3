"""A deadline for a whole outbound request, not for each socket operation.

httpx's timeouts bound each connect, read and write on their own: a server that sends one
byte of its headers or body every few seconds never trips a read timeout and can hold a
URL check (and the screen batch waiting on it) for hours. The transport built here caps
every socket operation at the time left until a deadline the caller sets for the current
thread (`within`), so a request ends when its deadline passes, however the server drips.
Thread-local, because checks run concurrently in worker threads (`asyncio.to_thread`)
and a sync httpx client does all of a request's I/O in the calling thread.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import httpcore
import httpx

__all__ = ["deadline_transport", "time_left", "within"]


class _Deadline(threading.local):
    at: float | None = None


_deadline = _Deadline()


@contextmanager
def within(seconds: float) -> Iterator[None]:
    """Every socket operation of this thread's requests must end `seconds` from now."""
    previous = _deadline.at
    _deadline.at = time.monotonic() + seconds
    try:
        yield
    finally:
        _deadline.at = previous


def time_left() -> float | None:
    """Seconds left on this thread's deadline (never below 0), None when none is set:
    what a wait that is no socket operation (a name lookup) may still take."""
    at = _deadline.at
    return None if at is None else max(0.0, at - time.monotonic())


def _capped(timeout: float | None, expired: type[Exception]) -> float | None:
    """`timeout` shortened to the time left; raise `expired` once none is left."""
    at = _deadline.at
    if at is None:
        return timeout
    left = at - time.monotonic()
    if left <= 0:
        raise expired("request deadline passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _capped(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _capped(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        capped = _capped(timeout, httpcore.ConnectTimeout)
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, capped))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    def __init__(self) -> None:
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        capped = _capped(timeout, httpcore.ConnectTimeout)
        return _Stream(self._inner.connect_tcp(host, port, capped, local_address, socket_options))

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        raise httpcore.ConnectError("unix sockets are not used for outbound checks")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def deadline_transport(limits: httpx.Limits) -> httpx.HTTPTransport:
    """An httpx transport (no proxy, certificates verified) whose sockets obey `within`.

    httpx.HTTPTransport takes no network backend, so its connection pool is replaced by
    an equivalent one built on `_Backend` (httpx is pinned <0.29 in pyproject.toml; the
    unit test of a dripping server fails if this stops taking effect)."""
    transport = httpx.HTTPTransport(limits=limits, trust_env=False)
    transport._pool = httpcore.ConnectionPool(
        ssl_context=httpx.create_ssl_context(trust_env=False),
        max_connections=limits.max_connections,
        max_keepalive_connections=limits.max_keepalive_connections,
        keepalive_expiry=limits.keepalive_expiry,
        network_backend=_Backend(),
    )
    return transport
