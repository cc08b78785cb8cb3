"""The REST issue trackers are bounded like URL checks: a deadline on the whole request
(a tracker dripping its answer cannot hold the screen batch) and a bounded read of the
body (a gzip bomb is never inflated whole); the token comes from a SecretStr setting."""

from __future__ import annotations

import threading
import time
import tracemalloc
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from groundwire.guards.citations.issues import GitHubIssueTracker, build_issue_tracker
from groundwire.guards.config import CitationConfig


def _bomb() -> bytes:
    """64 MiB of zeros gzipped: about 64 KiB on the wire."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(1 << 20)
    return b"".join(deflate.compress(zeros) for _ in range(64)) + deflate.flush()


class _Tracker(BaseHTTPRequestHandler):
    """/drip/...: headers one line every 0.2 s for 6 s; /bomb/...: 200 with a gzip bomb;
    anything else: 200 when the bearer token is right, else 404."""

    bomb = b""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.startswith("/drip/"):
            self.wfile.write(b"HTTP/1.1 200 OK\r\n")
            try:
                for _ in range(30):
                    self.wfile.write(b"X-Slow: yes\r\n")
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:  # the client gave up: what the test wants
                pass
            return
        body, headers = b"{}", {"Content-Type": "application/json"}
        status = 200 if self.headers.get("Authorization") == "Bearer s3cret" else 404
        if self.path.startswith("/bomb/"):
            body, status = self.bomb, 200
            headers["Content-Encoding"] = "gzip"
        self.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def tracker_base() -> Iterator[str]:
    _Tracker.bomb = _Tracker.bomb or _bomb()
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Tracker)
    threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def test_a_dripping_tracker_cannot_outlast_the_timeout(tracker_base: str) -> None:
    """Per-read timeouts let a tracker that sends a header line every 0.2 s hold the
    lookup for as long as it drips (6 s here); the deadline ends it at timeout_s."""
    tracker = GitHubIssueTracker("acme/app", api_base=f"{tracker_base}/drip", timeout_s=0.6)
    started = time.monotonic()
    verdict = tracker.exists(7)
    elapsed = time.monotonic() - started
    tracker.close()
    assert (verdict.verified, verdict.transient) == (None, True)
    assert verdict.reason == "tracker unreachable: ReadTimeout"
    assert elapsed < 2.0


def test_a_gzip_bomb_from_the_tracker_is_never_inflated_whole(tracker_base: str) -> None:
    """httpx inflated the whole body (64 MiB from 64 KiB on the wire); only the status
    decides, so at most a small bounded part of the body is read."""
    tracker = GitHubIssueTracker("acme/app", api_base=f"{tracker_base}/bomb")
    tracemalloc.start()
    try:
        verdict = tracker.exists(7)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        tracker.close()
    assert verdict.verified is True
    assert peak < 4 << 20, f"{peak} bytes allocated"


def test_the_token_setting_is_a_secret_sent_only_to_the_tracker(tracker_base: str) -> None:
    cfg = CitationConfig(
        issue_tracker="github",
        issue_repo="acme/app",
        issue_api_base=tracker_base,
        issue_token="s3cret",  # type: ignore[arg-type]  # env and YAML give plain text
    )
    tracker = build_issue_tracker(cfg)
    assert isinstance(tracker, GitHubIssueTracker)
    assert tracker.exists(7).verified is True
    assert "s3cret" not in repr(tracker) and "s3cret" not in str(cfg.model_dump())
    tracker.close()
