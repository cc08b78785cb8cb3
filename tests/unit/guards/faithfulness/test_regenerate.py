"""guards/faithfulness/regenerate.py: the webhook goes through the SSRF guard, is pinned,
follows no redirect and reads a bounded answer."""

from __future__ import annotations

import gzip
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from groundwire.guards.config import RegenerateConfig
from groundwire.guards.faithfulness.regenerate import (
    RegenerationFailed,
    RegenerationRequest,
    WebhookRegenerator,
)
from groundwire.topics.answers import Answer

REQUEST = RegenerationRequest(
    Answer(
        answer_id="a",
        tenant_id="t",
        text="It has 9 engineers.",
        context=[{"id": "m", "text": "It has 3 engineers.", "source": "corpus"}],
    ),
    [],
    1,
    "refused",
)


class _Hook(BaseHTTPRequestHandler):
    replies: ClassVar[dict[str, tuple[int, dict[str, str], bytes]]] = {}
    seen: ClassVar[list[dict[str, object]]] = []

    def do_POST(self) -> None:
        size = int(self.headers.get("content-length", "0"))
        self.seen.append(
            {
                "path": self.path,
                "host": self.headers.get("host"),
                "auth": self.headers.get("authorization"),
                "body": json.loads(self.rfile.read(size)),
            }
        )
        if self.path == "/drip":  # a valid start, then a byte every 0.2 s for 6 s
            self.wfile.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n")
            try:
                for _ in range(30):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:
                pass
            return
        status, headers, body = self.replies[self.path]
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        """Quiet."""


@pytest.fixture
def hook() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Hook.seen.clear()
    _Hook.replies = {
        "/ok": (200, {"content-type": "application/json"}, b'{"answer": "It has 3 engineers."}'),
        "/moved": (302, {"location": "http://169.254.169.254/latest"}, b""),
        "/big": (200, {}, b'{"answer": "' + b"x" * 5_000 + b'"}'),
        "/text": (200, {}, b"not json"),
        "/err": (500, {}, b"{}"),
        "/gzip": (200, {"content-encoding": "gzip"}, gzip.compress(b'{"answer": "x"}')),
    }
    yield f"127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def regenerator(url: str, **kw: object) -> WebhookRegenerator:
    return WebhookRegenerator(RegenerateConfig(webhook_url=url, **kw))  # type: ignore[arg-type]


async def test_a_private_address_is_refused_before_any_connection(hook: str) -> None:
    regen = regenerator(f"http://{hook}/ok")
    with pytest.raises(RegenerationFailed, match=r"refused non-public address 127\.0\.0\.1"):
        await regen.regenerate(REQUEST)
    assert _Hook.seen == []
    await regen.aclose()


async def test_a_name_resolving_to_a_private_address_is_refused() -> None:
    cfg = RegenerateConfig(webhook_url="https://hooks.example.com/regen")
    regen = WebhookRegenerator(cfg, resolver=lambda host, port: ["10.1.2.3", "93.184.216.34"])
    with pytest.raises(RegenerationFailed, match=r"10\.1\.2\.3"):
        await regen.regenerate(REQUEST)
    await regen.aclose()


async def test_an_allow_listed_hook_answers(hook: str) -> None:
    regen = regenerator(f"http://{hook}/ok", webhook_allowlist=["127.0.0.1"], webhook_token="s3")
    assert await regen.regenerate(REQUEST) == "It has 3 engineers."
    [seen] = _Hook.seen
    assert seen["auth"] == "Bearer s3" and seen["host"] == hook
    body = seen["body"]
    assert isinstance(body, dict)
    assert body["answer"] == "It has 9 engineers." and body["attempt"] == 1
    assert "instructions" in body
    await regen.aclose()


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("/moved", "HTTP 302"),  # a redirect is never followed
        ("/big", "over 1024 bytes"),
        ("/text", "not JSON"),
        ("/err", "HTTP 500"),
        ("/gzip", "compressed"),  # inflated whole before it was counted: a bomb's way in
    ],
)
async def test_bad_answers_fail_the_attempt(hook: str, path: str, why: str) -> None:
    regen = regenerator(
        f"http://{hook}{path}", webhook_allowlist=["127.0.0.1"], webhook_max_response_bytes=1_024
    )
    with pytest.raises(RegenerationFailed, match=why):
        await regen.regenerate(REQUEST)
    await regen.aclose()


@pytest.mark.parametrize("url", ["ftp://example.com/x", "http://user:pw@example.com/x", "nohost"])
def test_unusable_urls_are_refused_at_start(url: str) -> None:
    with pytest.raises(ValueError):
        regenerator(url)


async def test_a_dripping_hook_cannot_outlast_the_timeout(hook: str) -> None:
    """`webhook_timeout_s` bounds the whole call, not each read of the answer."""
    regen = regenerator(
        f"http://{hook}/drip", webhook_allowlist=["127.0.0.1"], webhook_timeout_s=0.6
    )
    started = time.monotonic()
    with pytest.raises(RegenerationFailed, match="timed out"):
        await regen.regenerate(REQUEST)
    assert time.monotonic() - started < 2.0
    await regen.aclose()
