"""The SSRF guard: which addresses a URL check may connect to.

URL checks fetch addresses an untrusted claim chose, which makes them a server-side
request forgery vector. Every hop is therefore checked before any connection: the host
is resolved once, EVERY resolved address must be public (or allow-listed), and the caller
pins the connection to the address that was checked (`url.UrlVerifier`), so a DNS answer
that changes between check and connect (DNS rebinding) cannot redirect the request.
IPv6 forms that embed an IPv4 address (mapped, 6to4, Teredo) are judged by that address.
Python's own tables (`is_global`) differ between versions and miss a few ranges that are
not reachable from the internet but may route inside a site, so those are refused by name
(`_NOT_PUBLIC`): IPv6 site-local fec0::/10 (deprecated, still configured on old internal
networks) and the IETF protocol block 192.0.0.0/24 (but for its two global anycast hosts).
"""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import Callable, Sequence

import httpx

from groundwire.guards.citations.resolve import ResolveUnavailable, system_resolver

__all__ = ["IpAddress", "IpNetwork", "ResolveUnavailable", "Resolver", "SsrfGuard", "UrlRefused"]

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
# (host, port) -> the addresses it resolves to; tests pass a fake one.
Resolver = Callable[[str, int], list[str]]


class UrlRefused(Exception):
    """The URL may not be fetched (decided before any connection is made)."""


_NOT_PUBLIC: tuple[IpNetwork, ...] = (
    ipaddress.ip_network("fec0::/10"),
    ipaddress.ip_network("192.0.0.0/24"),
)
_GLOBAL_EXCEPTIONS = frozenset(ipaddress.ip_address(a) for a in ("192.0.0.9", "192.0.0.10"))


def _is_public(ip: IpAddress) -> bool:
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped or ip.sixtofour
        if mapped is not None:
            return _is_public(mapped)
        if ip.teredo is not None:
            return _is_public(ip.teredo[1])
    if ip not in _GLOBAL_EXCEPTIONS and any(ip in net for net in _NOT_PUBLIC):
        return False
    return ip.is_global and not (
        ip.is_multicast or ip.is_unspecified or ip.is_reserved or ip.is_link_local
    )


def _ascii_name(name: str) -> str:
    """An allow-listed name as the checks see hosts: lower case, IDNA 2008 (what httpx
    puts in the Host header), no trailing dot; as written when it is no valid name."""
    with contextlib.suppress(httpx.InvalidURL, UnicodeError):
        name = httpx.URL(f"http://{name}/").raw_host.decode("ascii")
    return name.lower().rstrip(".")


class SsrfGuard:
    """Decides which hosts and addresses a URL check may connect to."""

    def __init__(self, allowlist: Sequence[str] = (), resolver: Resolver | None = None) -> None:
        self._nets: list[IpNetwork] = []
        self._hosts: set[str] = set()
        for entry in allowlist:
            try:
                self._nets.append(ipaddress.ip_network(entry.strip(), strict=False))
            except ValueError:
                self._hosts.add(_ascii_name(entry.strip()))
        # the system resolver behind a bounded pool (`resolve.py`): a lookup never outlasts
        # the check's deadline; tests pass their own
        self._resolve = resolver or system_resolver()

    def _allowed(self, ip: IpAddress) -> bool:
        if any(ip in net for net in self._nets):
            return True
        return _is_public(ip)

    def check(self, host: str, port: int) -> IpAddress:
        """Resolve `host` and return the address to pin to; raise UrlRefused if ANY
        resolved address is not allowed (one private answer is enough to refuse), and
        ResolveUnavailable (transient) when the name could not be resolved in time."""
        host = host.lower().rstrip(".")
        if not host:
            raise UrlRefused("empty host")
        try:
            addrs = [ipaddress.ip_address(host)]
        except ValueError:
            try:
                addrs = [
                    ipaddress.ip_address(a.split("%", 1)[0]) for a in self._resolve(host, port)
                ]
            except (OSError, UnicodeError, ValueError) as exc:
                raise UrlRefused(f"cannot resolve host: {type(exc).__name__}") from exc
        if not addrs:
            raise UrlRefused("host has no address")
        if host not in self._hosts:
            for ip in addrs:
                if not self._allowed(ip):
                    raise UrlRefused(f"refused non-public address {ip}")
        return addrs[0]
