"""Citation verification against real things: ADR files, a real git repository, a real
local HTTP server, and the SSRF guard (refusals decided before any connection)."""

from __future__ import annotations

import asyncio
import gzip
import os
import socket
import subprocess
import threading
import time
import tracemalloc
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

import pytest

from groundwire.guards.citations import Citation, CitationType, detect
from groundwire.guards.citations.adr import verify_adr
from groundwire.guards.citations.git import verify_commit
from groundwire.guards.citations.issues import (
    FileIssueTracker,
    GitHubIssueTracker,
    GitLabIssueTracker,
)
from groundwire.guards.citations.url import UrlVerifier
from groundwire.guards.citations.verifier import CitationVerifier
from groundwire.guards.config import CitationConfig

# --------------------------------------------------------------------- local server


class _Handler(BaseHTTPRequestHandler):
    seen: list[tuple[str, str, str]]

    def log_message(self, *args: object) -> None:  # keep test output clean
        pass

    def _respond(self) -> None:
        self.server.seen.append((self.command, self.path, self.headers.get("Host", "")))  # type: ignore[attr-defined]
        path = self.path
        status, headers = 404, {}
        if path == "/ok":
            status = 200
        elif path == "/head-refused":
            status = 405 if self.command == "HEAD" else 200
        elif path == "/redirect":
            status, headers = 302, {"Location": "/ok"}
        elif path == "/loop":
            status, headers = 302, {"Location": "/loop"}
        elif path == "/to-private":
            status, headers = 302, {"Location": "http://10.0.0.1/admin"}
        elif path == "/to-metadata":
            status, headers = 301, {"Location": "http://169.254.169.254/latest/meta-data/"}
        elif path == "/repos/acme/app/issues/7":
            status = 200 if self.headers.get("Authorization") == "Bearer s3cret" else 404
        elif path == "/projects/grp%2Fproj/issues/3":
            status = 200 if self.headers.get("PRIVATE-TOKEN") == "s3cret" else 401
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_HEAD = _respond
    do_GET = _respond


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    srv.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _base(srv: ThreadingHTTPServer) -> str:
    return f"http://127.0.0.1:{srv.server_address[1]}"


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Record every outgoing TCP connection attempt (httpcore's sync backend uses
    socket.create_connection), so a test can prove a refusal happened before connecting."""
    attempts: list[tuple[str, int]] = []
    real = socket.create_connection

    def recording(address, *args, **kwargs):  # type: ignore[no-untyped-def]
        attempts.append((str(address[0]), int(address[1])))
        return real(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", recording)
    return attempts


# ----------------------------------------------------------------------------- URLs


def test_url_ok_when_allow_listed(server: ThreadingHTTPServer) -> None:
    v = UrlVerifier(allowlist=["127.0.0.1/32"])
    result = v.verify(f"{_base(server)}/ok")
    assert (result.verified, result.reason) == (True, "HTTP 200")
    assert server.seen[0][0] == "HEAD"  # type: ignore[attr-defined]


def test_url_404_is_unverified(server: ThreadingHTTPServer) -> None:
    result = UrlVerifier(allowlist=["127.0.0.1"]).verify(f"{_base(server)}/missing")
    assert (result.verified, result.reason) == (False, "HTTP 404")


def test_head_refused_falls_back_to_get(server: ThreadingHTTPServer) -> None:
    result = UrlVerifier(allowlist=["127.0.0.1"]).verify(f"{_base(server)}/head-refused")
    assert result.verified is True
    assert [m for m, _, _ in server.seen] == ["HEAD", "GET"]  # type: ignore[attr-defined]


def test_redirects_followed_and_limited(server: ThreadingHTTPServer) -> None:
    v = UrlVerifier(allowlist=["127.0.0.1"], max_redirects=3)
    assert v.verify(f"{_base(server)}/redirect").verified is True
    looped = v.verify(f"{_base(server)}/loop")
    assert looped.verified is False and "redirects" in looped.reason
    assert sum(1 for _, p, _ in server.seen if p == "/loop") == 4  # type: ignore[attr-defined]


def test_loopback_refused_unless_allow_listed(
    server: ThreadingHTTPServer, connections: list[tuple[str, int]]
) -> None:
    result = UrlVerifier().verify(f"{_base(server)}/ok")
    assert result.verified is False and result.reason.startswith("refused")
    assert server.seen == [] and connections == []  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "url",
    [
        "http://10.1.2.3/internal",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]:8080/",
        "http://[::ffff:127.0.0.1]/",
        "http://0.0.0.0:80/",
        "http://192.168.1.1/router",
        "http://[fec0::1]/",  # site-local: Python calls it global
        "http://192.0.0.8/",  # IETF protocol block: Python calls it global
    ],
)
def test_private_addresses_refused_before_connecting(
    url: str, connections: list[tuple[str, int]]
) -> None:
    result = UrlVerifier(timeout_s=30).verify(url)
    assert result.verified is False and result.reason.startswith("refused")
    assert connections == []


def test_every_resolved_address_is_checked(connections: list[tuple[str, int]]) -> None:
    calls: list[str] = []

    def resolver(host: str, port: int) -> list[str]:
        calls.append(host)
        return ["93.184.216.34", "10.9.8.7"]  # one public, one private answer

    result = UrlVerifier(resolver=resolver).verify("https://mixed.example/doc")
    assert result.verified is False and "10.9.8.7" in result.reason
    assert calls == ["mixed.example"] and connections == []


def test_redirect_hops_are_rechecked(
    server: ThreadingHTTPServer, connections: list[tuple[str, int]]
) -> None:
    v = UrlVerifier(allowlist=["127.0.0.1"])
    for path in ("/to-private", "/to-metadata"):
        result = v.verify(f"{_base(server)}{path}")
        assert result.verified is False and result.reason.startswith("refused"), path
    assert {host for host, _ in connections} == {"127.0.0.1"}


def test_connection_is_pinned_to_the_checked_address(server: ThreadingHTTPServer) -> None:
    """The name is resolved once per hop and the request goes to that address with the
    original Host header: a second, different DNS answer can never be used."""
    answers = iter([["127.0.0.1"], ["10.0.0.1"], ["10.0.0.1"]])
    calls: list[str] = []

    def rebinding(host: str, port: int) -> list[str]:
        calls.append(host)
        return next(answers)

    port = server.server_address[1]
    v = UrlVerifier(allowlist=["127.0.0.0/8"], resolver=rebinding)
    assert v.verify(f"http://docs.internal.test:{port}/ok").verified is True
    assert calls == ["docs.internal.test"]
    assert server.seen == [("HEAD", "/ok", f"docs.internal.test:{port}")]  # type: ignore[attr-defined]


def test_a_unicode_name_is_resolved_as_the_host_header_names_it(
    server: ThreadingHTTPServer,
) -> None:
    """The resolver and TLS encode `url.host` by IDNA 2003 ('faß' -> 'fass'), httpx's Host
    header by IDNA 2008 ('xn--fa-hia'): the check resolved one domain and claimed another."""
    calls: list[str] = []

    def resolver(host: str, port: int) -> list[str]:
        calls.append(host)
        return ["127.0.0.1"]

    port = server.server_address[1]
    v = UrlVerifier(allowlist=["faß.example"], resolver=resolver)
    assert v.verify(f"http://faß.example:{port}/ok").verified is True
    assert calls == ["xn--fa-hia.example"]
    assert server.seen == [("HEAD", "/ok", f"xn--fa-hia.example:{port}")]  # type: ignore[attr-defined]


def test_proxy_variables_are_ignored(
    server: ThreadingHTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A proxy would connect on the verifier's behalf, past the pinned address."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")  # nothing listens there
    result = UrlVerifier(allowlist=["127.0.0.1"]).verify(f"{_base(server)}/ok")
    assert (result.verified, result.reason) == (True, "HTTP 200")


def test_bad_schemes_and_credentials_refused(connections: list[tuple[str, int]]) -> None:
    v = UrlVerifier()
    assert v.verify("ftp://example.com/file").verified is False
    assert v.verify("http://user:pw@example.com/").verified is False
    assert connections == []


class _BadLocation(BaseHTTPRequestHandler):
    """Redirects to whatever `?to=` says, even when it is no URL at all."""

    def log_message(self, *args: object) -> None:
        pass

    def do_HEAD(self) -> None:
        location = unquote(self.path.partition("?to=")[2])
        self.wfile.write(
            b"HTTP/1.1 302 Found\r\nLocation: "
            + location.encode("utf-8")
            + b"\r\nContent-Length: 0\r\n\r\n"
        )

    do_GET = do_HEAD


@pytest.mark.parametrize(
    "location", ["mailto:x", "http://[v1.x]/", "http://[::1]:abc/", "http://xn--/", "http://⒈/"]
)
def test_a_redirect_to_no_url_is_an_answer_not_an_exception(location: str) -> None:
    """The server picks the Location: one httpx cannot parse must not raise out of the
    check (it failed the screen batch, and a batch of such claims was replayed forever)."""
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _BadLocation)
    threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True).start()
    try:
        result = UrlVerifier(allowlist=["127.0.0.1"]).verify(f"{_base(srv)}/r?to={location}")
    finally:
        srv.shutdown()
        srv.server_close()
    assert result.verified is False
    # httpx itself refuses some Locations while reading the response (a transport error)
    assert result.reason.startswith(("invalid URL", "refused", "fetch failed")), result.reason


def _bomb() -> bytes:
    """64 MiB of zeros gzipped: about 64 KiB on the wire."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(1 << 20)
    return b"".join(deflate.compress(zeros) for _ in range(64)) + deflate.flush()


class _Bodies(BaseHTTPRequestHandler):
    """/gzip: a small gzipped page; /bomb: a gzip bomb; /charset/X: 'hello' in charset X."""

    bomb = b""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        headers = {"Content-Type": "text/plain"}
        if self.path == "/gzip":
            body = gzip.compress(b"the page says hello")
            headers["Content-Encoding"] = "gzip"
        elif self.path == "/bomb":
            body = self.bomb
            headers["Content-Encoding"] = "gzip"
        else:
            body = b"hello"
            headers["Content-Type"] = f"text/plain; charset={self.path.rpartition('/')[2]}"
        self.send_response(200)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def bodies() -> Iterator[str]:
    _Bodies.bomb = _Bodies.bomb or _bomb()
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Bodies)
    threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True).start()
    yield _base(srv)
    srv.shutdown()
    srv.server_close()


def test_a_gzip_bomb_is_inflated_only_as_far_as_the_text_limit(bodies: str) -> None:
    """httpx inflates each network chunk whole (64 KiB of gzip -> 64 MiB): the verifier
    inflates itself, never past the 4 bytes a character it may read."""
    v = UrlVerifier(allowlist=["127.0.0.1"], max_text=1_000)
    assert v.verify(f"{bodies}/gzip").text == "the page says hello"
    tracemalloc.start()
    try:
        result = v.verify(f"{bodies}/bomb")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.verified is True and result.text is not None
    assert peak < 4 << 20, f"{peak} bytes allocated"


@pytest.mark.parametrize("charset", ["rot13", "zlib", "base64", "idna"])
def test_a_charset_that_is_no_text_encoding_is_read_as_utf8(bodies: str, charset: str) -> None:
    """Python finds these codecs but cannot decode bytes to text with them: it raised out
    of the check (and failed the screen batch); the body is read as UTF-8 instead."""
    result = UrlVerifier(allowlist=["127.0.0.1"], max_text=100).verify(f"{bodies}/c/{charset}")
    assert (result.verified, result.text) == (True, "hello")


class _Drip(BaseHTTPRequestHandler):
    """Sends its headers (/head) or its body (/body) one byte every 0.2 s for 6 s: never
    slow enough for a read timeout, far slower than any request may take."""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/head":
            self.wfile.write(b"HTTP/1.1 200 OK\r\n")
            drip = b"X-Slow: yes\r\n"
        else:
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n")
            drip = b"a"
        try:
            for _ in range(30):
                self.wfile.write(drip)
                self.wfile.flush()
                time.sleep(0.2)
        except OSError:  # the client gave up: what the test wants
            pass

    do_HEAD = do_GET


@pytest.mark.parametrize("path", ["/head", "/body"])
def test_a_dripping_server_cannot_outlast_the_timeout(path: str) -> None:
    """`timeout_s` bounds the whole request: per-read timeouts alone let a server that
    drips a byte at a time hold a check (and its screen batch) for as long as it likes."""
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Drip)
    threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True).start()
    try:
        v = UrlVerifier(timeout_s=0.6, allowlist=["127.0.0.1"], max_text=1_000)
        result = v.verify(f"{_base(srv)}{path}")
    finally:
        srv.shutdown()
        srv.server_close()
    # The outcome holds the bound, no clock needed: a byte every 0.2 s never trips a
    # per-read timeout of 0.6 s, so only a timeout over the whole request ends in
    # ReadTimeout (the server would otherwise finish its 6 s drip and the check go on).
    assert (result.verified, result.reason) == (False, "fetch failed: ReadTimeout")


class _SlowHops(BaseHTTPRequestHandler):
    """/hop/N answers after 0.4 s: a redirect to /hop/N+1 up to 3, then 200."""

    def log_message(self, *args: object) -> None:
        pass

    def do_HEAD(self) -> None:
        time.sleep(0.4)
        n = int(self.path.rpartition("/")[2])
        self.send_response(302 if n < 3 else 200)
        if n < 3:
            self.send_header("Location", f"/hop/{n + 1}")
        self.send_header("Content-Length", "0")
        self.end_headers()


def test_the_timeout_bounds_the_whole_chain_of_redirects() -> None:
    """Four hops of 0.4 s each (1.6 s) against a 1 s bound: with the bound per request
    the chain reaches its 200 and verifies; with it over the whole check it is refused
    (a chain of slow redirects multiplied the time one citation could hold the batch)."""
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _SlowHops)
    threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True).start()
    try:
        v = UrlVerifier(timeout_s=1.0, allowlist=["127.0.0.1"])
        result = v.verify(f"{_base(srv)}/hop/0")
    finally:
        srv.shutdown()
        srv.server_close()
    # which phase the budget runs out in depends on the machine's load (a later hop's
    # connect or its read); either way the chain is refused within the one bound
    assert result.verified is False
    assert result.reason in ("fetch failed: ReadTimeout", "fetch failed: ConnectTimeout")


# -------------------------------------------------------------------- ADRs, commits


def test_adr_files(tmp_path: Path) -> None:
    adrs = tmp_path / "docs" / "adrs"
    adrs.mkdir(parents=True)
    (adrs / "ADR-003-use-postgres.md").write_text("# ADR-003\n")
    (adrs / "0012-kafka-keys.md").write_text("# 12\n")
    other = tmp_path / "more"
    other.mkdir()
    (other / "adr_41.rst").write_text("x")
    dirs = [adrs, other, tmp_path / "missing"]
    assert verify_adr(3, dirs).verified is True
    assert verify_adr(12, dirs).verified is True
    assert verify_adr(41, dirs).verified is True
    assert verify_adr(999, dirs).verified is False
    assert verify_adr(30, dirs).verified is False  # 003 is not 30


def _git(repo: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    proc = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=True
    )
    return proc.stdout.strip()


@pytest.fixture
def git_repo(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "a.txt").write_text("hello\n")
    _git(repo, "add", "a.txt")
    _git(repo, "commit", "-q", "-m", "first")
    return repo, _git(repo, "rev-parse", "HEAD")


def test_commit_exists_in_real_repo(git_repo: tuple[Path, str]) -> None:
    repo, sha = git_repo
    assert verify_commit(sha, [repo]).verified is True
    assert verify_commit(sha[:10], [repo]).verified is True
    fake = "0123456789abcdef0123456789abcdef01234567"
    assert fake != sha and verify_commit(fake, [repo]).verified is False


def test_commit_blob_is_not_a_commit(git_repo: tuple[Path, str]) -> None:
    repo, _ = git_repo
    blob = _git(repo, "rev-parse", "HEAD:a.txt")
    assert verify_commit(blob, [repo]).verified is False


@pytest.mark.parametrize("bad", ["--output=/tmp/x", "HEAD", "a1b2c3d; rm -rf /", "abc"])
def test_commit_hash_validated_first(bad: str, git_repo: tuple[Path, str]) -> None:
    repo, _ = git_repo
    result = verify_commit(bad, [repo])
    assert result.verified is False and result.reason == "not a commit hash"


def test_commit_without_repo_is_unchecked() -> None:
    assert verify_commit("a1b2c3d4e5", []).verified is None


# --------------------------------------------------------------------------- issues


def test_file_issue_tracker(tmp_path: Path) -> None:
    listing = tmp_path / "issues.txt"
    listing.write_text("#12\n40\n")
    tracker = FileIssueTracker(listing)
    assert tracker.exists(12).verified is True
    assert tracker.exists(13).verified is False
    as_json = tmp_path / "issues.json"
    as_json.write_text('[{"number": 5}, {"iid": 6}, 7]')
    assert [FileIssueTracker(as_json).exists(n).verified for n in (5, 6, 7, 8)] == [
        True,
        True,
        True,
        False,
    ]


def test_github_tracker_sends_token(server: ThreadingHTTPServer) -> None:
    tracker = GitHubIssueTracker("acme/app", token="s3cret", api_base=_base(server))
    assert tracker.exists(7).verified is True
    assert tracker.exists(8).verified is False
    assert GitHubIssueTracker("acme/app", api_base=_base(server)).exists(7).verified is False
    assert "s3cret" not in repr(tracker)


def test_gitlab_tracker(server: ThreadingHTTPServer) -> None:
    tracker = GitLabIssueTracker("grp/proj", token="s3cret", api_base=_base(server))
    assert tracker.exists(3).verified is True
    unknown = GitLabIssueTracker("grp/proj", token="wrong", api_base=_base(server)).exists(3)
    assert unknown.verified is None  # 401 says nothing about the issue


# ----------------------------------------------------------------- facade and cache


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_results_cached_with_ttl(tmp_path: Path) -> None:
    adr = tmp_path / "ADR-007-x.md"
    adr.write_text("x")
    clock = _Clock()
    v = CitationVerifier(CitationConfig(adr_dirs=[tmp_path], cache_ttl_s=60), clock=clock)
    (cit,) = detect("Per ADR-007 we shard")
    assert v.verify(cit).verified is True
    adr.unlink()
    assert v.verify(cit).verified is True and v.checks_run == 1  # served from cache
    clock.now += 61
    assert v.verify(cit).verified is False and v.checks_run == 2


def test_averify_many_checks_each_distinct_citation_once(server: ThreadingHTTPServer) -> None:
    cfg = CitationConfig(url_allowlist=["127.0.0.1"], adr_dirs=[])
    v = CitationVerifier(cfg)
    url = f"{_base(server)}/ok"
    cits = [Citation(CitationType.URL, url, 0, 1)] * 3 + [
        Citation(CitationType.URL, f"{_base(server)}/missing", 0, 1)
    ]
    reports = asyncio.run(v.averify_many(cits))
    assert [r.verified for r in reports] == [True, True, True, False]
    assert v.checks_run == 2


def test_switches(server: ThreadingHTTPServer) -> None:
    (cit,) = detect(f"See {_base(server)}/ok")
    assert CitationVerifier(CitationConfig(verify=False)).verify(cit).verified is None
    no_urls = CitationVerifier(CitationConfig(url_allowlist=["127.0.0.1"]), verify_urls=False)
    assert no_urls.verify(cit).verified is None
    assert server.seen == []  # type: ignore[attr-defined]
    (issue,) = detect("see #5")
    assert CitationVerifier(CitationConfig()).verify(issue).verified is None


def test_lookups_are_counted_by_where_the_verdict_came_from(tmp_path: Path) -> None:
    (tmp_path / "ADR-007-x.md").write_text("x")
    seen: list[tuple[str, int]] = []
    v = CitationVerifier(
        CitationConfig(adr_dirs=[tmp_path]), on_lookups=lambda s, n: seen.append((s, n))
    )
    cits = detect("Per ADR-007 we shard") + detect("Per ADR-008 we replicate") * 2
    assert [r.verified for r in asyncio.run(v.averify_many(cits))] == [True, False, False]
    assert seen == [("checked", 2)]
    asyncio.run(v.averify_many(cits[:1]))
    assert seen == [("checked", 2), ("local", 1)]


def test_settings_that_decide_verdicts_change_the_cache_scope(tmp_path: Path) -> None:
    base = CitationConfig(adr_dirs=[tmp_path])
    same = CitationVerifier(base.model_copy(update={"issue_token": "other-token"}))
    assert CitationVerifier(base).scope() == same.scope()  # a token only authorises
    for update in ({"adr_dirs": []}, {"git_repos": [tmp_path]}, {"url_allowlist": ["10.0.0.0/8"]}):
        assert CitationVerifier(base.model_copy(update=update)).scope() != same.scope(), update
    assert CitationVerifier(base, verify_urls=False).scope() != same.scope()


# ---------------------------------------------------------- what the artifact says


def test_an_adr_verdict_carries_its_text_when_asked(tmp_path: Path) -> None:
    (tmp_path / "ADR-003-store.md").write_text("# ADR-003\n\nWe use PostgreSQL.\n" + "x" * 500)
    assert verify_adr(3, [tmp_path]).text is None  # existence only, as before
    verdict = verify_adr(3, [tmp_path], max_text=40)
    assert verdict.verified is True and verdict.text is not None
    assert verdict.text.startswith("# ADR-003\n\nWe use PostgreSQL.") and len(verdict.text) == 40


def test_a_commit_verdict_carries_its_message(git_repo: tuple[Path, str]) -> None:
    repo, sha = git_repo
    verdict = verify_commit(sha, [repo], max_text=100)
    assert (verdict.verified, verdict.text) == (True, "first")
    assert verify_commit(sha, [repo]).text is None


class _Pages(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        pages = {
            "/doc": (
                "text/html; charset=utf-8",
                "<html><script>var x=1;</script><h1>Retries</h1>"
                "<p>The worker retries &amp; backs off.</p></html>",
            ),
            "/bin": ("application/octet-stream", "\x00\x01"),
        }
        kind, body = pages.get(self.path, ("text/plain", ""))
        data = body.encode()
        self.send_response(200 if self.path in pages else 404)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def test_a_page_verdict_carries_its_text_only_when_asked_and_textual() -> None:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    thread = threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        base = _base(srv)
        reading = UrlVerifier(allowlist=["127.0.0.1"], max_text=1000)
        page = reading.verify(f"{base}/doc")
        assert (page.verified, page.text) == (True, "Retries The worker retries & backs off.")
        assert reading.verify(f"{base}/bin").text == ""  # not text: nothing to check against
        assert reading.verify(f"{base}/missing").verified is False
        assert UrlVerifier(allowlist=["127.0.0.1"]).verify(f"{base}/doc").text is None
    finally:
        srv.shutdown()
        srv.server_close()


def test_the_verifier_hands_the_text_to_the_report_but_not_to_the_wire(tmp_path: Path) -> None:
    (tmp_path / "adr-7.md").write_text("We shard by tenant.")
    v = CitationVerifier(CitationConfig(adr_dirs=[tmp_path]))
    (report,) = asyncio.run(v.averify_many([Citation(CitationType.ADR, "ADR-7", 0, 5)]))
    assert report.verified is True and report.artifact_text() == "We shard by tenant."
    assert "shard" not in report.model_dump_json()
    off = CitationVerifier(CitationConfig(adr_dirs=[tmp_path], artifact_max_chars=0))
    assert off.verify(Citation(CitationType.ADR, "ADR-7", 0, 5)).artifact_text() is None
