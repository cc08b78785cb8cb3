"""URL citations: does the cited address answer 2xx?

Each hop goes through the SSRF guard (`ssrf.SsrfGuard`) before any connection, and the
connection is pinned to the address that was checked: the URL's host is replaced by the
IP, the original name travels in the Host header and as TLS SNI, so certificates are still
checked against the name. A DNS answer that changes between check and connect (DNS
rebinding) therefore cannot redirect the request. Redirects are followed by hand, each hop
re-checked, up to a limit. Proxies from the environment are ignored, since a proxy would
make the pinning meaningless. Only status and headers are read, never a body.
"""

from __future__ import annotations

from collections.abc import Sequence

import httpx

from groundwire.guards.citations.cache import CitationVerdict
from groundwire.guards.citations.ssrf import Resolver, SsrfGuard, UrlRefused

__all__ = ["USER_AGENT", "UrlVerifier"]

# Sent by every outbound check (URLs and issue trackers), so a site can tell who asks.
USER_AGENT = "groundwire-citation-verifier/0.1"


class UrlVerifier:
    """HEAD (GET fallback) with timeouts, a redirect limit and the SSRF guard on every hop."""

    def __init__(
        self,
        timeout_s: float = 5.0,
        max_redirects: int = 3,
        allowlist: Sequence[str] = (),
        resolver: Resolver | None = None,
    ) -> None:
        self.guard = SsrfGuard(allowlist, resolver)
        self._max_redirects = max_redirects
        self._client = httpx.Client(
            timeout=httpx.Timeout(timeout_s),
            follow_redirects=False,
            trust_env=False,
            headers={"User-Agent": USER_AGENT},
            limits=httpx.Limits(max_connections=32, max_keepalive_connections=0),
        )

    def close(self) -> None:
        self._client.close()

    def _request(self, method: str, url: httpx.URL) -> httpx.Response:
        if url.scheme not in ("http", "https"):
            raise UrlRefused(f"scheme {url.scheme!r} not allowed")
        if url.userinfo:
            raise UrlRefused("credentials in URL not allowed")
        port = url.port or (443 if url.scheme == "https" else 80)
        ip = self.guard.check(url.host, port)  # before any connection
        pinned = url.copy_with(host=str(ip))
        extensions = {"sni_hostname": url.host} if url.scheme == "https" else {}
        request = self._client.build_request(
            method, pinned, headers={"Host": url.netloc.decode("ascii")}, extensions=extensions
        )
        response = self._client.send(request, stream=True)
        response.close()  # status and headers are all we need; never read a body
        return response

    def verify(self, raw_url: str) -> CitationVerdict:
        try:
            url = httpx.URL(raw_url)
        except (httpx.InvalidURL, ValueError) as exc:
            return CitationVerdict(False, f"invalid URL: {type(exc).__name__}")
        try:
            for _hop in range(self._max_redirects + 1):
                response = self._request("HEAD", url)
                if response.status_code in (403, 405, 501):
                    response = self._request("GET", url)  # servers that refuse HEAD
                location = response.headers.get("location")
                if response.is_redirect and location:
                    url = url.join(location)
                    continue
                code = response.status_code
                return CitationVerdict(200 <= code < 300, f"HTTP {code}", transient=code >= 500)
            return CitationVerdict(False, f"more than {self._max_redirects} redirects")
        except UrlRefused as exc:
            return CitationVerdict(False, f"refused: {exc}")
        except httpx.HTTPError as exc:
            return CitationVerdict(False, f"fetch failed: {type(exc).__name__}", transient=True)
