"""The `regenerate` policy's seam: who is asked for a new answer (docs/spec.md §Read-time
faithfulness, "Policies").

A library caller passes any object with `async regenerate(request) -> str | None` (its own
LLM call). The Kafka stage and the HTTP endpoint use `WebhookRegenerator`, which POSTs the
request as JSON to `faithfulness.regenerate.webhook_url` and reads `{"answer": "..."}`
back. The URL is the deployment's, but it is still fetched like a citation's URL: through
the SSRF guard of `guards/citations/ssrf.py` (every resolved address public unless
allow-listed), on a connection pinned to the address that was checked (a DNS answer that
changes in between cannot redirect it), with no redirects followed, a timeout and a bound
on the response size. A failure is an attempt that produced nothing, never an exception
into the caller.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import httpx
import orjson

from groundwire.guards.citations.deadline import within
from groundwire.guards.citations.ssrf import (
    IpAddress,
    Resolver,
    ResolveUnavailable,
    SsrfGuard,
    UrlRefused,
)
from groundwire.guards.citations.url import USER_AGENT
from groundwire.guards.config import RegenerateConfig
from groundwire.topics.answers import Answer, AnswerClaim
from groundwire.topics.vocab import AnswerClaimVerdict

__all__ = [
    "GROUNDED_RULES",
    "RegenerationFailed",
    "RegenerationRequest",
    "Regenerator",
    "WebhookRegenerator",
]

# What a stricter prompt asks of the model (ADR-0031's grounded prompt, in our words).
GROUNDED_RULES = (
    "Answer only from the sources given; cite each factual statement with its source "
    "[source:N]; never name a file, field or parameter that is not in the sources; quote "
    "exactly; if the sources do not answer the question, say so."
)


@dataclass(frozen=True, slots=True)
class RegenerationRequest:
    """What a regenerator is told: the answer, what was wrong with the last attempt."""

    answer: Answer
    claims: Sequence[AnswerClaim]  # of the answer being replaced (the original or the last)
    attempt: int  # 1-based
    refusal: str  # what the user gets if no attempt is good enough

    def unsupported(self) -> list[dict[str, str]]:
        return [
            {"claim": c.text, "why": c.reason}
            for c in self.claims
            if c.verdict is not None and c.verdict is not AnswerClaimVerdict.SUPPORTED
        ]

    def payload(self) -> dict[str, Any]:
        a = self.answer
        return {
            "answer_id": a.answer_id,
            "tenant_id": a.tenant_id,
            "user_id": a.user_id,
            "attempt": self.attempt,
            "query": a.query,
            "answer": a.text,
            "context": [
                {"index": i + 1, "id": s.id, "text": s.text} for i, s in enumerate(a.context)
            ],
            "unsupported": self.unsupported(),
            "instructions": GROUNDED_RULES,
        }


class Regenerator(Protocol):
    async def regenerate(self, request: RegenerationRequest) -> str | None: ...


class RegenerationFailed(Exception):
    """The webhook gave no usable answer (refused URL, timeout, error status, bad body)."""


class WebhookRegenerator:
    """POSTs a `RegenerationRequest` to the configured URL through the SSRF guard."""

    def __init__(self, cfg: RegenerateConfig, resolver: Resolver | None = None) -> None:
        if not cfg.webhook_url:
            raise ValueError("faithfulness.regenerate.webhook_url is not set")
        self.url = httpx.URL(cfg.webhook_url)
        if self.url.scheme not in ("http", "https") or not self.url.host:
            raise ValueError("faithfulness.regenerate.webhook_url must be an http(s) URL")
        if self.url.userinfo:
            raise ValueError("faithfulness.regenerate.webhook_url must not hold credentials")
        self.cfg = cfg
        self.guard = SsrfGuard(cfg.webhook_allowlist, resolver)
        # identity: the answer is counted against its bound as it arrives, never inflated
        headers = {
            "User-Agent": USER_AGENT,
            "Content-Type": "application/json",
            "Accept-Encoding": "identity",
        }
        if cfg.webhook_token:
            headers["Authorization"] = f"Bearer {cfg.webhook_token.get_secret_value()}"
        self._client = httpx.AsyncClient(
            timeout=httpx.Timeout(cfg.webhook_timeout_s),
            follow_redirects=False,
            trust_env=False,  # a proxy would make pinning meaningless
            headers=headers,
        )

    async def aclose(self) -> None:
        await self._client.aclose()

    async def regenerate(self, request: RegenerationRequest) -> str | None:
        """The new answer; raises RegenerationFailed with why when there is none."""
        url = self.url
        port = url.port or (443 if url.scheme == "https" else 80)
        host = url.raw_host.decode("ascii")  # the name the Host header carries (IDNA 2008)
        body = orjson.dumps(request.payload())
        try:
            # the timeout bounds the whole call, name resolution included: httpx's bounds
            # each read, which a hook that drips its answer a byte at a time never trips
            async with asyncio.timeout(self.cfg.webhook_timeout_s):
                # before any connection; in a thread, since resolving blocks
                ip = await asyncio.to_thread(self._check, host, port)
                http_request = self._client.build_request(
                    "POST",
                    url.copy_with(host=str(ip)),  # pinned to the checked address
                    content=body,
                    headers={"Host": url.netloc.decode("ascii")},
                    extensions={"sni_hostname": host} if url.scheme == "https" else {},
                )
                raw = await self._post(http_request)
        except UrlRefused as exc:
            raise RegenerationFailed(f"webhook refused: {exc}") from None
        except ResolveUnavailable as exc:
            raise RegenerationFailed(f"webhook unreachable: {exc}") from None
        except TimeoutError:
            raise RegenerationFailed("webhook timed out") from None
        except httpx.HTTPError as exc:
            raise RegenerationFailed(f"webhook failed: {type(exc).__name__}") from None
        try:
            doc = orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise RegenerationFailed("webhook answer is not JSON") from None
        text = doc.get("answer") if isinstance(doc, dict) else None
        if not isinstance(text, str):
            raise RegenerationFailed('webhook answer has no "answer" string')
        return text

    def _check(self, host: str, port: int) -> IpAddress:
        """The SSRF guard's check, its name lookup bounded by the call's timeout."""
        with within(self.cfg.webhook_timeout_s):
            return self.guard.check(host, port)

    async def _post(self, request: httpx.Request) -> bytes:
        response = await self._client.send(request, stream=True)
        try:
            if not response.is_success:
                raise RegenerationFailed(f"webhook answered HTTP {response.status_code}")
            return await _read_bounded(response, self.cfg.webhook_max_response_bytes)
        finally:
            await response.aclose()


async def _read_bounded(response: httpx.Response, limit: int) -> bytes:
    """The body, refused past `limit` bytes as received. A compressed body is refused
    (identity was asked for): httpx would inflate each chunk whole before it is counted,
    64 MiB from a 64 KiB gzip chunk."""
    encoding = response.headers.get("content-encoding", "").strip().lower()
    if encoding not in ("", "identity"):
        raise RegenerationFailed(f"webhook answer is compressed ({encoding[:20]})")
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_raw():
        size += len(chunk)
        if size > limit:
            raise RegenerationFailed(f"webhook answer is over {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)
