"""URL citations: does the cited address answer 2xx?

Each hop goes through the SSRF guard (`ssrf.SsrfGuard`) before any connection, and the
connection is pinned to the address that was checked: the URL's host is replaced by the
IP, the original name travels in the Host header and as TLS SNI, so certificates are still
checked against the name. A DNS answer that changes between check and connect (DNS
rebinding) therefore cannot redirect the request. Redirects are followed by hand, each hop
re-checked, up to a limit. Proxies from the environment are ignored, since a proxy would
make the pinning meaningless.

`timeout_s` bounds a whole check: every hop, the HEAD and its GET fallback, name
resolution, connect, headers and body together (`deadline.py`, `resolve.py`), not each
socket read. A server that drips a byte at a time, a chain of slow redirects or a name
whose nameservers never answer cannot hold a check (and the screen batch waiting on it)
longer than that. An address that let a check time out is skipped for a while
(`backoff.py`), so a tarpit costs one timeout per window, not one per URL cited on it.

By default only status and headers are read (HEAD). With `max_text` the final hop is a GET
whose body is read up to `max_text` characters (4 bytes each at most), and only when it is
text (text/*, JSON, XML); HTML is reduced to its text. That body is what the claim is
checked against: a page that exists but says something else is not support.
"""

from __future__ import annotations

import html
import re
import zlib
from collections.abc import Sequence

import httpx

from groundwire.guards.citations.backoff import TimeoutBackoff
from groundwire.guards.citations.cache import CitationVerdict
from groundwire.guards.citations.deadline import deadline_transport, time_left, within
from groundwire.guards.citations.ssrf import Resolver, ResolveUnavailable, SsrfGuard, UrlRefused

__all__ = ["USER_AGENT", "UrlVerifier", "outbound_client", "read_bounded"]

# Sent by every outbound check (URLs and issue trackers), so a site can tell who asks.
USER_AGENT = "groundwire-citation-verifier/0.1"
_TEXTUAL = re.compile(r"^(?:text/|application/(?:[\w.+-]*\+)?(?:json|xml|xhtml\+xml))", re.I)
_SCRIPT = re.compile(r"<(script|style|noscript)\b.*?</\1\s*>", re.I | re.S)
_TAG = re.compile(r"<[^>]{0,2000}>")
_SPACE = re.compile(r"\s+")


class _Skipped(Exception):
    """The check is pinned to an address the backoff skips for now (transient)."""


class UrlVerifier:
    """HEAD (GET fallback) with timeouts, a redirect limit and the SSRF guard on every hop."""

    def __init__(
        self,
        timeout_s: float = 5.0,
        max_redirects: int = 3,
        allowlist: Sequence[str] = (),
        resolver: Resolver | None = None,
        max_text: int = 0,
        backoff: TimeoutBackoff | None = None,
    ) -> None:
        self.guard = SsrfGuard(allowlist, resolver)
        # addresses that let a check time out are skipped for a while (`backoff.py`)
        self.backoff = backoff if backoff is not None else TimeoutBackoff()
        self._max_redirects = max_redirects
        self._max_text = max(0, max_text)
        self._timeout_s = timeout_s
        limits = httpx.Limits(max_connections=32, max_keepalive_connections=0)
        self._client = outbound_client(timeout_s, limits)

    def close(self) -> None:
        self._client.close()

    def _request(self, method: str, url: httpx.URL, read: int = 0) -> tuple[httpx.Response, str]:
        if url.scheme not in ("http", "https"):
            raise UrlRefused(f"scheme {url.scheme!r} not allowed")
        if url.userinfo:
            raise UrlRefused("credentials in URL not allowed")
        port = url.port or (443 if url.scheme == "https" else 80)
        # The ASCII (IDNA 2008) name the Host header carries: `url.host` is the Unicode
        # form, which the system resolver and TLS would encode by IDNA 2003 ('faß.de' ->
        # fass.de, another domain than the xn--fa-hia.de the Host header names).
        host = url.raw_host.decode("ascii")
        ip = self.guard.check(host, port)  # before any connection
        if self.backoff.skipped_for(ip):
            raise _Skipped("address timed out recently")
        pinned = url.copy_with(host=str(ip))
        extensions = {"sni_hostname": host} if url.scheme == "https" else {}
        request = self._client.build_request(
            method, pinned, headers={"Host": url.netloc.decode("ascii")}, extensions=extensions
        )
        left = time_left()
        try:
            response = self._client.send(request, stream=True)
            try:
                body = _read_text(response, read) if read and response.is_success else ""
            finally:
                response.close()  # never more of a body than `read` asks for
        except httpx.TimeoutException:
            # the address's fault only if it had a fair share of the check's time: not
            # when earlier hops had spent the deadline before this request started
            if left is None or left >= self._timeout_s / 2:
                self.backoff.timed_out(ip)
            raise
        self.backoff.answered(ip)
        return response, body

    def verify(self, raw_url: str) -> CitationVerdict:
        try:
            url = httpx.URL(raw_url)
        except (httpx.InvalidURL, ValueError) as exc:
            return CitationVerdict(False, f"invalid URL: {type(exc).__name__}")
        with within(self._timeout_s):  # the whole check, however slowly it drips
            return self._follow(url)

    def _follow(self, url: httpx.URL) -> CitationVerdict:
        """Request `url` and follow its redirects by hand, each hop checked first."""
        read = self._max_text
        method = "GET" if read else "HEAD"
        try:
            for _hop in range(self._max_redirects + 1):
                response, body = self._request(method, url, read)
                if response.status_code in (403, 405, 501) and method == "HEAD":
                    response, body = self._request("GET", url)  # servers that refuse HEAD
                location = response.headers.get("location")
                if response.is_redirect and location:
                    url = url.join(location)
                    continue
                code = response.status_code
                ok = 200 <= code < 300
                return CitationVerdict(
                    ok, f"HTTP {code}", transient=code >= 500, text=body if ok and read else None
                )
            return CitationVerdict(False, f"more than {self._max_redirects} redirects")
        except UrlRefused as exc:
            return CitationVerdict(False, f"refused: {exc}")
        except (ResolveUnavailable, _Skipped) as exc:  # nothing about the URL: retried soon
            return CitationVerdict(False, f"fetch failed: {exc}", transient=True)
        except (httpx.InvalidURL, ValueError) as exc:
            # a Location the server chose that is no URL ('mailto:x', 'http://[v1.x]/',
            # a host IDNA refuses): an answer, not a crash of the batch that cited it
            return CitationVerdict(False, f"invalid URL on the way: {type(exc).__name__}")
        except httpx.HTTPError as exc:
            return CitationVerdict(False, f"fetch failed: {type(exc).__name__}", transient=True)


def outbound_client(timeout_s: float, limits: httpx.Limits) -> httpx.Client:
    """The client of every outbound check (URLs, issue trackers): no proxy from the
    environment, no redirect followed by httpx, our User-Agent, and sockets that obey the
    caller's `deadline.within` (without one, `timeout_s` bounds each operation only)."""
    return httpx.Client(
        timeout=httpx.Timeout(timeout_s),
        follow_redirects=False,
        trust_env=False,
        headers={"User-Agent": USER_AGENT},
        transport=deadline_transport(limits),
    )


def _read_text(response: httpx.Response, max_chars: int) -> str:
    """At most `max_chars` characters of a textual body (HTML reduced to its text); "" for
    anything else. Reads at most 4 bytes per character, then stops."""
    if not _TEXTUAL.match(response.headers.get("content-type", "text/plain")):
        return ""
    text = _decode(read_bounded(response, max_chars * 4), response.encoding)
    if "<" in text and ">" in text:  # markup: keep the words a reader sees
        text = html.unescape(_TAG.sub(" ", _SCRIPT.sub(" ", text)))
    return _SPACE.sub(" ", text).strip()[:max_chars]


def read_bounded(response: httpx.Response, limit: int) -> bytes:
    """At most `limit` bytes of the body once decompressed, never more in memory.

    httpx's own decoder inflates each network chunk whole: one 64 KiB gzip chunk of zeros
    is 64 MiB. So the raw bytes are read and inflated here with an output bound; an
    encoding other than gzip/deflate (or stacked ones) is not read at all."""
    encoding = response.headers.get("content-encoding", "").strip().lower()
    if encoding in ("", "identity"):
        inflater = None
    elif encoding in ("gzip", "x-gzip", "deflate"):
        inflater = zlib.decompressobj(47 if encoding != "deflate" else 15)  # 47: gzip or zlib
    else:
        return b""
    out = bytearray()
    try:
        for chunk in response.iter_raw():
            out += chunk if inflater is None else inflater.decompress(chunk, limit - len(out))
            if len(out) >= limit:
                break
    except zlib.error:
        pass  # a corrupt stream: what was inflated so far
    return bytes(out[:limit])


def _decode(raw: bytes, charset: str | None) -> str:
    """`raw` as text in the server's charset; a charset that names no text encoding
    ('rot13', 'zlib', 'idna': they raise even with errors="replace") is read as UTF-8."""
    try:
        return raw.decode(charset or "utf-8", "replace")
    except (LookupError, UnicodeError):
        return raw.decode("utf-8", "replace")
