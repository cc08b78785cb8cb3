"""Caches for citation verdicts: one per process (L1) and, optionally, one shared in Redis (L2).

A fabricated citation tends to be repeated: the same model cites the same invented URL in
many claims, across workers. Without a shared cache every screen worker (and every
restart) re-fetches it, which multiplies outbound requests by the number of replicas and
forgets everything on a deploy. Verification caches therefore live in Redis
(docs/architecture.md §State); the process cache stays in front so a hot citation costs
no round trip at all.

The Redis cache is an optimisation, never a decision input of its own: when Redis is slow
or down the verifier checks the citation itself (and says so in a metric and a log line),
so a Redis outage costs latency, not correctness. Keys hold a SHA-256 of the citation, not
its text, and a *scope*: a digest of the settings that decide a verdict (ADR directories,
git repositories, tracker, URL allow-list). Two deployments sharing one Redis with
different settings therefore never read each other's verdicts. A verdict states whether a
deployment-wide resource exists, so it is the same for every tenant and is not keyed by
tenant. Anyone who can write to this Redis can forge verdicts: it is trusted state, like
the dedup index.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import orjson
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# A transient failure (timeout, 5xx) says nothing about existence: remember it only long
# enough not to hammer a struggling host.
TRANSIENT_TTL_S = 60.0

CacheKey = tuple[str, str]  # (citation type, citation value)


@dataclass(frozen=True, slots=True)
class CitationVerdict:
    """Outcome of one check. `transient`: a failure that says nothing about existence.
    `text`: what the artifact says (an ADR's body, a commit's message, a page's text),
    bounded by `citation.artifact_max_chars`, when it was read."""

    verified: bool | None
    reason: str
    transient: bool = False
    text: str | None = None


def ttl_for(verdict: CitationVerdict, ttl_s: float) -> float:
    return min(ttl_s, TRANSIENT_TTL_S) if verdict.transient else ttl_s


class TTLCache:
    """A small thread-safe TTL cache (verification runs in worker threads)."""

    def __init__(
        self, ttl_s: float, max_entries: int = 10_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._ttl = ttl_s
        self._max = max_entries
        self._clock = clock
        self._data: dict[CacheKey, tuple[float, CitationVerdict]] = {}
        self._lock = threading.Lock()

    def get(self, key: CacheKey) -> CitationVerdict | None:
        with self._lock:
            item = self._data.get(key)
            if item is None:
                return None
            if item[0] <= self._clock():
                del self._data[key]
                return None
            return item[1]

    def put(self, key: CacheKey, verdict: CitationVerdict, ttl_s: float | None = None) -> None:
        ttl = ttl_for(verdict, self._ttl) if ttl_s is None else min(ttl_s, self._ttl)
        if ttl <= 0:
            return
        with self._lock:
            if len(self._data) >= self._max and key not in self._data:
                del self._data[next(iter(self._data))]  # oldest insertion first
            self._data[key] = (self._clock() + ttl, verdict)

    def __len__(self) -> int:
        return len(self._data)


def settings_scope(parts: Sequence[object]) -> str:
    """A short digest of the settings that decide verdicts (see the module docstring)."""
    blob = orjson.dumps([str(p) for p in parts])
    return hashlib.sha256(blob).hexdigest()[:16]


class RedisVerdictCache:
    """Verdicts shared by every worker through Redis, with the same TTLs as the L1 cache.

    Every call is bounded by the client's socket timeouts; errors are logged (without the
    URL, which may carry credentials) and reported to `on_error`, and the caller treats
    them as misses. After a failure the cache stays out of the way for `cooldown_s`."""

    def __init__(
        self,
        client: aioredis.Redis | RedisCluster,
        *,
        prefix: str,
        scope: str,
        ttl_s: float,
        on_error: Callable[[str], None] | None = None,
        cooldown_s: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self._prefix = f"{prefix}:{scope}:"
        self._ttl = ttl_s
        self._on_error = on_error
        self._cooldown = cooldown_s
        self._clock = clock
        self._skip_until = 0.0

    @property
    def available(self) -> bool:
        """False for `cooldown_s` after a failure: a dead Redis is not waited on per batch."""
        return self._clock() >= self._skip_until

    def key(self, key: CacheKey) -> str:
        digest = hashlib.sha256(key[1].encode("utf-8", "surrogatepass")).hexdigest()
        return f"{self._prefix}{key[0]}:{digest}"

    async def get_many(
        self, keys: Sequence[CacheKey]
    ) -> list[tuple[CitationVerdict, float] | None]:
        """Each hit with the seconds it has left to live, so the L1 copy expires with it."""
        if not keys:
            return []
        if not self.available:
            return [None] * len(keys)
        try:
            pipe = self._client.pipeline(transaction=False)
            for k in keys:
                name = self.key(k)
                pipe.get(name)
                pipe.pttl(name)
            replies = await pipe.execute()
        except (RedisError, OSError) as exc:
            self._failed("read", exc)
            return [None] * len(keys)
        out: list[tuple[CitationVerdict, float] | None] = []
        for raw, pttl in zip(replies[0::2], replies[1::2], strict=True):
            verdict = _decode(raw)
            out.append(None if verdict is None else (verdict, max(pttl, 0) / 1000.0))
        return out

    async def put_many(self, items: Sequence[tuple[CacheKey, CitationVerdict]]) -> None:
        if not items or not self.available:
            return
        try:
            pipe = self._client.pipeline(transaction=False)
            for k, verdict in items:
                ttl_ms = int(ttl_for(verdict, self._ttl) * 1000)
                if ttl_ms > 0:
                    pipe.set(self.key(k), _encode(verdict), px=ttl_ms)
            await pipe.execute()
        except (RedisError, OSError) as exc:
            self._failed("write", exc)

    async def aclose(self) -> None:
        await self._client.aclose()

    def _failed(self, op: str, exc: BaseException) -> None:
        self._skip_until = self._clock() + self._cooldown
        log.warning(
            "citation cache %s in Redis failed (%s); checking directly", op, type(exc).__name__
        )
        if self._on_error is not None:
            self._on_error(op)


def _encode(verdict: CitationVerdict) -> bytes:
    doc: dict[str, object] = {"v": verdict.verified, "r": verdict.reason, "t": verdict.transient}
    if verdict.text is not None:
        doc["x"] = verdict.text
    return orjson.dumps(doc)


def _decode(raw: bytes | None) -> CitationVerdict | None:
    """A value this version cannot read is a miss, not an error: it will be overwritten."""
    if raw is None:
        return None
    try:
        data = orjson.loads(raw)
        verified = data["v"]
        if verified is not None and not isinstance(verified, bool):
            return None
        text = data.get("x")
        if text is not None and not isinstance(text, str):
            return None
        return CitationVerdict(verified, str(data["r"]), bool(data.get("t", False)), text)
    except (orjson.JSONDecodeError, KeyError, TypeError):
        return None
