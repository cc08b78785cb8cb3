"""Addresses that recently let a URL check time out are not connected to again for a while.

A check that times out costs its screen batch the whole `url_timeout_s`, and its verdict
is transient (cached 60 s), so a tarpit (a server that accepts and never answers) costs
that again every minute for each URL cited, and a claim author can cite endless distinct
URLs on it (`/1`, `/2`, any subdomain of a wildcard domain). So the verifier remembers the
*address* it was pinned to when the request timed out, and for a window fails every check
pinned to that address at once, as transient, without connecting. The window starts at
`first_s` and doubles with each further timeout of the address, up to `max_s`; an answer
from the address forgets it. Addresses, not names: names are free to mint, addresses are
not. An IPv6 address counts by its /64, the block one customer gets.

The cost: a legitimate address that was slow once fails its checks as transient (a
citation then goes to review, as the timeout itself would have) for the first window.
Memory is bounded: at most `max_entries` addresses, the oldest forgotten first.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections.abc import Callable

from groundwire.guards.citations.ssrf import IpAddress

__all__ = ["TimeoutBackoff"]


def _key(ip: IpAddress) -> str:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is None:
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else ip)


class TimeoutBackoff:
    """Per address: until when checks skip it, and how many timeouts in a row it had."""

    def __init__(
        self,
        first_s: float = 60.0,
        max_s: float = 900.0,
        max_entries: int = 4096,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._first = first_s
        self._max = max(first_s, max_s)
        self._max_entries = max_entries
        self._clock = clock
        self._entries: dict[str, tuple[float, int]] = {}  # key -> (skip until, streak)
        self._lock = threading.Lock()

    def skipped_for(self, ip: IpAddress) -> float:
        """Seconds this address is still skipped for; 0 when it may be tried."""
        with self._lock:
            entry = self._entries.get(_key(ip))
        return 0.0 if entry is None else max(0.0, entry[0] - self._clock())

    def timed_out(self, ip: IpAddress) -> None:
        """A request pinned to `ip` timed out: skip it, twice as long as last time."""
        key = _key(ip)
        with self._lock:
            streak = self._entries.pop(key, (0.0, 0))[1] + 1
            window = min(self._max, self._first * 2 ** min(streak - 1, 32))
            if len(self._entries) >= self._max_entries:
                del self._entries[next(iter(self._entries))]  # oldest first
            self._entries[key] = (self._clock() + window, streak)

    def answered(self, ip: IpAddress) -> None:
        """`ip` answered (any status): forget its timeouts."""
        with self._lock:
            self._entries.pop(_key(ip), None)

    def __len__(self) -> int:
        return len(self._entries)
