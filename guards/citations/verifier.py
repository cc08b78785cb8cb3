"""Citation verification: does the cited ADR, commit, URL or issue exist? (seed 000, step 2)

Models fabricate citations that look right, so a citation only counts as grounding once
the thing it names has been found: an ADR file in a configured directory, a commit in a
configured git repository, a URL that answers 2xx, an issue the tracker knows.

URL checks fetch addresses an untrusted claim chose, which makes them a server-side
request forgery vector. Every hop is therefore checked before any connection: the host
is resolved once, EVERY resolved address must be public (or allow-listed), and the
connection is pinned to the address that was checked (the URL's host is replaced by the
IP, the original name travels in the Host header and as TLS SNI, so certificates are still
checked against the name). A DNS answer that changes between check and connect (DNS
rebinding) therefore cannot redirect the request. Redirects are followed by hand, each hop
re-checked, up to a limit. Proxies from the environment are ignored, since a proxy would
make the pinning meaningless.

Results are cached with a TTL (negative results too: a hallucinated URL cited a thousand
times is fetched once per TTL). Transient failures are cached briefly so an outage is
neither hammered nor remembered for an hour.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import re
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol
from urllib.parse import quote

import httpx

from groundwire.guards.citations.cache import (
    CacheKey,
    CitationVerdict,
    RedisVerdictCache,
    TTLCache,
    settings_scope,
)
from groundwire.guards.citations.detect import Citation, CitationType
from groundwire.guards.config import CitationConfig
from groundwire.guards.redis_client import connect
from groundwire.topics.records import CitationReport

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], list[str]]

_COMMIT_HASH = re.compile(r"^[0-9a-f]{7,40}$")
_ADR_FILE = re.compile(
    r"^(?:adr[-_ ]?)?0*(\d{1,6})(?:[-_ .][^/]*)?\.(?:md|markdown|rst|txt|adoc)$", re.IGNORECASE
)
_GITHUB_REPO = re.compile(r"^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$")
_MAX_ADR_ENTRIES = 20_000
_USER_AGENT = "groundwire-citation-verifier/0.1"


# ---------------------------------------------------------------------------- ADRs


def verify_adr(number: int, dirs: Sequence[Path]) -> CitationVerdict:
    """An ADR exists when a configured directory holds a file named for its number
    (ADR-003-title.md, adr_3.md, 0003-title.md: zero padding and prefix vary by tool)."""
    for directory in dirs:
        if not directory.is_dir():
            continue
        for i, entry in enumerate(os.scandir(directory)):
            if i >= _MAX_ADR_ENTRIES:
                break
            m = _ADR_FILE.match(entry.name)
            if m and int(m.group(1)) == number and entry.is_file():
                return CitationVerdict(True, f"ADR file exists: {entry.name}")
    return CitationVerdict(False, "ADR not found")


# -------------------------------------------------------------------------- commits


def verify_commit(sha: str, repos: Sequence[Path], timeout_s: float = 5.0) -> CitationVerdict:
    """`git cat-file -t <sha>^{commit}` in each configured repository (argument list, the
    hash validated first, so nothing from the claim reaches a shell or an option slot)."""
    sha = sha.lower()
    if not _COMMIT_HASH.match(sha):
        return CitationVerdict(False, "not a commit hash")
    if not repos:
        return CitationVerdict(None, "no git repository configured")
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}
    for repo in repos:
        try:
            proc = subprocess.run(
                ["git", "-C", str(repo), "cat-file", "-t", f"{sha}^{{commit}}"],
                capture_output=True,
                text=True,
                timeout=timeout_s,
                env=env,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return CitationVerdict(False, f"git failed: {type(exc).__name__}", transient=True)
        if proc.returncode == 0 and proc.stdout.strip() == "commit":
            return CitationVerdict(True, f"commit exists in {repo.name}")
    return CitationVerdict(False, "unknown commit")


# ----------------------------------------------------------------------------- URLs


class UrlRefused(Exception):
    """The URL may not be fetched (decided before any connection is made)."""


def _system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def _is_public(ip: IpAddress) -> bool:
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped or ip.sixtofour
        if mapped is not None:
            return _is_public(mapped)
        if ip.teredo is not None:
            return _is_public(ip.teredo[1])
    return ip.is_global and not (
        ip.is_multicast or ip.is_unspecified or ip.is_reserved or ip.is_link_local
    )


class SsrfGuard:
    """Decides which hosts and addresses a URL check may connect to."""

    def __init__(self, allowlist: Sequence[str] = (), resolver: Resolver | None = None) -> None:
        self._nets: list[IpNetwork] = []
        self._hosts: set[str] = set()
        for entry in allowlist:
            try:
                self._nets.append(ipaddress.ip_network(entry.strip(), strict=False))
            except ValueError:
                self._hosts.add(entry.strip().lower().rstrip("."))
        self._resolve = resolver or _system_resolver

    def _allowed(self, ip: IpAddress) -> bool:
        if any(ip in net for net in self._nets):
            return True
        return _is_public(ip)

    def check(self, host: str, port: int) -> IpAddress:
        """Resolve `host` and return the address to pin to; raise UrlRefused if ANY
        resolved address is not allowed (one private answer is enough to refuse)."""
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
            headers={"User-Agent": _USER_AGENT},
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


# --------------------------------------------------------------------------- issues


class IssueTracker(Protocol):
    """Answers "does issue N exist?": True, False, or None when it cannot tell."""

    def exists(self, number: int) -> CitationVerdict: ...


class FileIssueTracker:
    """Issue numbers from a local file: a JSON list (ints or objects with number/iid/id)
    or one number per line ("123" or "#123"). Re-read when the file changes."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._mtime: float | None = None
        self._numbers: frozenset[int] = frozenset()
        self._lock = threading.Lock()

    def _load(self) -> frozenset[int]:
        mtime = self._path.stat().st_mtime
        with self._lock:
            if mtime != self._mtime:
                text = self._path.read_text(encoding="utf-8")
                self._numbers = frozenset(_parse_issue_numbers(text))
                self._mtime = mtime
            return self._numbers

    def exists(self, number: int) -> CitationVerdict:
        try:
            numbers = self._load()
        except (OSError, ValueError) as exc:
            return CitationVerdict(
                None, f"issue file unreadable: {type(exc).__name__}", transient=True
            )
        if number in numbers:
            return CitationVerdict(True, "issue listed")
        return CitationVerdict(False, "issue not found")


def _parse_issue_numbers(text: str) -> list[int]:
    stripped = text.lstrip()
    if stripped.startswith("["):
        out: list[int] = []
        for item in json.loads(stripped):
            if isinstance(item, int):
                out.append(item)
            elif isinstance(item, dict):
                for key in ("number", "iid", "id"):
                    if isinstance(item.get(key), int):
                        out.append(item[key])
                        break
        return out
    return [
        int(line.strip().lstrip("#"))
        for line in text.splitlines()
        if line.strip().lstrip("#").isdigit()
    ]


class _RestIssueTracker:
    """Shared HTTP handling: 200 exists, 404/410 does not, anything else is unknown."""

    def __init__(self, token: str | None, timeout_s: float) -> None:
        self._token = token
        self._client = httpx.Client(
            timeout=httpx.Timeout(timeout_s), trust_env=False, headers={"User-Agent": _USER_AGENT}
        )

    def __repr__(self) -> str:  # never show the token
        return f"{type(self).__name__}(token={'***' if self._token else None})"

    def _get(self, url: str, headers: dict[str, str]) -> CitationVerdict:
        try:
            response = self._client.get(url, headers=headers)
        except httpx.HTTPError as exc:
            return CitationVerdict(
                None, f"tracker unreachable: {type(exc).__name__}", transient=True
            )
        if response.status_code == 200:
            return CitationVerdict(True, "issue exists")
        if response.status_code in (404, 410):
            return CitationVerdict(False, "issue not found")
        return CitationVerdict(
            None, f"tracker answered HTTP {response.status_code}", transient=True
        )

    def close(self) -> None:
        self._client.close()


class GitHubIssueTracker(_RestIssueTracker):
    def __init__(
        self,
        repo: str,
        token: str | None = None,
        api_base: str | None = None,
        timeout_s: float = 5.0,
    ) -> None:
        if not _GITHUB_REPO.match(repo):
            raise ValueError("GitHub repo must look like owner/name")
        super().__init__(token, timeout_s)
        self._base = (api_base or "https://api.github.com").rstrip("/")
        self._repo = repo

    def exists(self, number: int) -> CitationVerdict:
        headers = {"Accept": "application/vnd.github+json"}
        if self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        return self._get(f"{self._base}/repos/{self._repo}/issues/{int(number)}", headers)


class GitLabIssueTracker(_RestIssueTracker):
    def __init__(
        self,
        project: str,
        token: str | None = None,
        api_base: str | None = None,
        timeout_s: float = 5.0,
    ) -> None:
        super().__init__(token, timeout_s)
        self._base = (api_base or "https://gitlab.com/api/v4").rstrip("/")
        self._project = quote(project, safe="")

    def exists(self, number: int) -> CitationVerdict:
        headers = {"PRIVATE-TOKEN": self._token} if self._token else {}
        return self._get(f"{self._base}/projects/{self._project}/issues/{int(number)}", headers)


def build_issue_tracker(cfg: CitationConfig) -> IssueTracker | None:
    """The tracker the config names, or None (issues then stay unverified)."""
    if cfg.issue_tracker == "file" and cfg.issue_file is not None:
        return FileIssueTracker(cfg.issue_file)
    if cfg.issue_tracker == "github" and cfg.issue_repo:
        return GitHubIssueTracker(
            cfg.issue_repo, cfg.issue_token, cfg.issue_api_base, cfg.url_timeout_s
        )
    if cfg.issue_tracker == "gitlab" and cfg.issue_repo:
        return GitLabIssueTracker(
            cfg.issue_repo, cfg.issue_token, cfg.issue_api_base, cfg.url_timeout_s
        )
    return None


# ------------------------------------------------------------------------ the facade


class CitationVerifier:
    """Verifies detected citations through two cache levels: the process's own TTL cache
    and, when given, a Redis cache shared by every worker (`averify_many` only; the sync
    `verify` serves `groundwire check` and stays in-process)."""

    def __init__(
        self,
        cfg: CitationConfig,
        *,
        verify_urls: bool = True,
        issue_tracker: IssueTracker | None = None,
        resolver: Resolver | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_concurrency: int = 16,
        shared_cache: RedisVerdictCache | None = None,
        on_lookups: Callable[[str, int], None] | None = None,
    ) -> None:
        self._cfg = cfg
        self._verify_urls = verify_urls
        self._issues = issue_tracker if issue_tracker is not None else build_issue_tracker(cfg)
        self._urls = UrlVerifier(
            cfg.url_timeout_s, cfg.url_max_redirects, cfg.url_allowlist, resolver
        )
        self.cache = TTLCache(cfg.cache_ttl_s, cfg.cache_max_entries, clock)
        self.shared_cache = shared_cache
        self._max_concurrency = max_concurrency
        self.checks_run = 0  # uncached checks, for tests and metrics
        self.shared_hits = 0  # verdicts taken from the shared cache
        self._on_lookups = on_lookups

    def close(self) -> None:
        self._urls.close()
        close = getattr(self._issues, "close", None)
        if callable(close):
            close()

    async def aclose(self) -> None:
        self.close()
        if self.shared_cache is not None:
            await self.shared_cache.aclose()

    def _check(self, citation: Citation) -> CitationVerdict:
        if citation.type is CitationType.ADR:
            return verify_adr(citation.number or 0, self._cfg.adr_dirs)
        if citation.type is CitationType.COMMIT:
            return verify_commit(citation.value, self._cfg.git_repos, self._cfg.url_timeout_s)
        if citation.type is CitationType.URL:
            if not self._verify_urls:
                return CitationVerdict(None, "URL verification disabled")
            return self._urls.verify(citation.value)
        if self._issues is None:
            return CitationVerdict(None, "no issue tracker configured")
        return self._issues.exists(citation.number or 0)

    def _checked(self, citation: Citation) -> CitationVerdict:
        """Local cache, else a real check (which lands in the local cache)."""
        key = _key(citation)
        verdict = self.cache.get(key)
        if verdict is None:
            verdict = self._check(citation)
            self.checks_run += 1
            self.cache.put(key, verdict)
        return verdict

    def verify(self, citation: Citation) -> CitationReport:
        if not self._cfg.verify:
            return _disabled(citation)
        return _report(citation, self._checked(citation))

    async def averify_many(self, citations: Sequence[Citation]) -> list[CitationReport]:
        """Verify concurrently (checks are blocking I/O, run in threads, bounded); each
        distinct citation is checked once even if many claims cite it, and not at all
        when this process or another worker already knows the verdict."""
        if not self._cfg.verify:
            return [_disabled(c) for c in citations]
        unique: dict[CacheKey, Citation] = {}
        for c in citations:
            unique.setdefault(_key(c), c)
        verdicts: dict[CacheKey, CitationVerdict] = {}
        for key in unique:
            hit = self.cache.get(key)
            if hit is not None:
                verdicts[key] = hit
        missing = [k for k in unique if k not in verdicts]
        self._count("local", len(unique) - len(missing))
        if missing and self.shared_cache is not None:
            before = len(missing)
            for key, hit in zip(missing, await self.shared_cache.get_many(missing), strict=True):
                if hit is not None:
                    verdicts[key] = hit[0]
                    self.cache.put(key, hit[0], ttl_s=hit[1])
                    self.shared_hits += 1
            missing = [k for k in missing if k not in verdicts]
            self._count("shared", before - len(missing))
        if missing:
            self._count("checked", len(missing))
            sem = asyncio.Semaphore(self._max_concurrency)

            async def one(c: Citation) -> CitationVerdict:
                async with sem:
                    return await asyncio.to_thread(self._checked, c)

            fresh = await asyncio.gather(*(one(unique[k]) for k in missing))
            verdicts.update(zip(missing, fresh, strict=True))
            if self.shared_cache is not None:
                await self.shared_cache.put_many(list(zip(missing, fresh, strict=True)))
        return [_report(c, verdicts[_key(c)]) for c in citations]

    def _count(self, source: str, n: int) -> None:
        if self._on_lookups is not None and n:
            self._on_lookups(source, n)

    def scope(self) -> str:
        """What the shared cache's keys are scoped by (see `citation_cache`)."""
        return settings_scope(verdict_settings(self._cfg, self._verify_urls))


def verdict_settings(cfg: CitationConfig, verify_urls: bool = True) -> list[object]:
    """The settings a verdict depends on; the token is left out (it only authorises)."""
    return [
        sorted(str(p) for p in cfg.adr_dirs),
        sorted(str(p) for p in cfg.git_repos),
        sorted(cfg.url_allowlist),
        cfg.url_max_redirects,
        verify_urls,
        cfg.issue_tracker,
        str(cfg.issue_file),
        cfg.issue_api_base,
        cfg.issue_repo,
    ]


def _key(citation: Citation) -> CacheKey:
    return (citation.type.value, citation.value)


def _disabled(citation: Citation) -> CitationReport:
    return CitationReport(
        type=citation.type.value, value=citation.value, reason="verification disabled"
    )


def _report(citation: Citation, verdict: CitationVerdict) -> CitationReport:
    return CitationReport(
        type=citation.type.value,
        value=citation.value,
        verified=verdict.verified,
        reason=verdict.reason,
    )


def build_citation_verifier(
    cfg: CitationConfig,
    redis_url: str | None = None,
    *,
    verify_urls: bool = True,
    on_lookups: Callable[[str, int], None] | None = None,
    on_cache_error: Callable[[str], None] | None = None,
    cluster: bool = False,
) -> CitationVerifier:
    """The verifier the stages use: with the shared Redis cache when `cache_backend` is
    "redis" and a Redis URL is known, in-process only otherwise."""
    verifier = CitationVerifier(cfg, verify_urls=verify_urls, on_lookups=on_lookups)
    if redis_url and cfg.cache_backend == "redis":
        client = connect(
            redis_url,
            socket_timeout_s=cfg.redis_timeout_s,
            connect_timeout_s=cfg.redis_timeout_s,
            retries=0,
            cluster=cluster,
        )
        verifier.shared_cache = RedisVerdictCache(
            client,
            prefix=cfg.redis_prefix,
            scope=verifier.scope(),
            ttl_s=cfg.cache_ttl_s,
            on_error=on_cache_error,
        )
    return verifier
