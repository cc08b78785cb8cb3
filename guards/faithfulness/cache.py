"""The validated-answer cache (docs/spec.md §Read-time faithfulness, "Degradation and
cache"; ADR-0031's query cache).

An answer's score depends only on its text, its citations, the context it was given and
the settings, so the same answer over the same context is scored once per TTL. Only
scores that *validated* are kept: the configured verifier answered (not degraded),
confidence at least `cache.min_confidence`, and no unverified field; anything else is
scored again next time. The policy is applied after a hit, so a tenant's new policy takes
effect at once.

Keys: `<prefix>:{<tenant digest>}:<context hash>:<answer hash>:<settings digest>`. The
hash tag is a digest of the tenant id, so one tenant's entries share a Redis Cluster slot
and a tenant id can never reach into another's keys; the settings digest keeps scores of
other settings (another verifier, other thresholds, a new version) apart. A Redis
failure costs a re-score, never a failed answer.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

import orjson
from pydantic import BaseModel, ValidationError
from redis.exceptions import RedisError

from groundwire.guards.config import GuardsConfig
from groundwire.topics.answers import Answer, AnswerClaim, AnswerValidation, AnswerWarning
from groundwire.topics.vocab import AnswerWarningType, RiskLevel

if TYPE_CHECKING:
    import redis.asyncio as aioredis
    from redis.asyncio.cluster import RedisCluster

    from groundwire.guards.faithfulness.score import Assessment

log = logging.getLogger(__name__)

__all__ = ["AnswerCache", "MemoryAnswerCache", "RedisAnswerCache", "cache_key", "settings_digest"]

# "hit", "miss", "store", "error": what the driver counts
OnEvent = Callable[[str], None]


class _Entry(BaseModel):
    """What a cache entry holds: the assessment without the answer itself."""

    claims: list[AnswerClaim]
    warnings: list[AnswerWarning]
    validation: AnswerValidation
    faithfulness: float | None
    risk: RiskLevel
    factual: int
    supported: int
    verifier: str


def settings_digest(cfg: GuardsConfig, verifier: str, extra: str = "") -> str:
    """A digest of everything besides the answer that decides its score."""
    from groundwire import __version__

    f = cfg.faithfulness
    doc = {
        "v": __version__,
        "verifier": verifier,
        "grounding": cfg.grounding.model_dump(mode="json", exclude={"llm_api_key"}),
        "provenance": cfg.provenance.model_dump(mode="json"),
        "faithfulness": f.model_dump(
            mode="json",
            include={
                "risk_thresholds",
                "max_answer_chars",
                "max_claims",
                "max_context_sources",
                "max_citations",
                "on_verifier_failure",
                "require_citations",
            },
        ),
        "extra": extra,
    }
    return hashlib.sha256(orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]


def cache_key(prefix: str, answer: Answer, digest: str) -> str:
    """The entry's key: tenant tag, context hash, answer hash, settings digest."""
    tenant = hashlib.sha256(answer.tenant_id.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    context = orjson.dumps(
        {
            "user": answer.user_id,
            "at": answer.created_at.isoformat() if answer.created_at else None,
            "context": [s.model_dump(mode="json") for s in answer.context],
            "other": [s.model_dump(mode="json") for s in answer.other_scopes],
        },
        option=orjson.OPT_SORT_KEYS,
    )
    said = orjson.dumps(
        {"text": answer.text, "citations": [c.model_dump(mode="json") for c in answer.citations]},
        option=orjson.OPT_SORT_KEYS,
    )
    ctx = hashlib.sha256(context).hexdigest()[:32]
    ans = hashlib.sha256(said).hexdigest()[:32]
    return f"{prefix}:{{{tenant}}}:{ctx}:{ans}:{digest}"


def cacheable(a: Assessment, min_confidence: float) -> bool:
    """ADR-0031: only validated, confident scores are kept."""
    return (
        not a.degraded
        and not a.failed_closed
        and a.validation.confidence >= min_confidence
        and not any(w.type is AnswerWarningType.UNVERIFIED_FIELDS for w in a.warnings)
    )


def _encode(a: Assessment) -> bytes:
    entry = _Entry(
        claims=a.claims,
        warnings=a.warnings,
        validation=a.validation,
        faithfulness=a.faithfulness,
        risk=a.risk,
        factual=a.factual,
        supported=a.supported,
        verifier=a.verifier,
    )
    return entry.model_dump_json().encode("utf-8")


def _decode(raw: bytes) -> Assessment | None:
    from groundwire.guards.faithfulness.score import Assessment

    try:
        e = _Entry.model_validate_json(raw)
    except ValidationError:
        return None  # written by another version: score again
    return Assessment(
        claims=e.claims,
        warnings=e.warnings,
        validation=e.validation,
        faithfulness=e.faithfulness,
        risk=e.risk,
        factual=e.factual,
        supported=e.supported,
        verifier=e.verifier,
    )


class AnswerCache(Protocol):
    async def get_many(self, answers: Sequence[Answer]) -> list[Assessment | None]: ...

    async def put_many(self, items: Sequence[tuple[Answer, Assessment]]) -> None: ...

    async def aclose(self) -> None: ...


class _Keyed:
    def __init__(self, cfg: GuardsConfig, verifier: str, on_event: OnEvent | None) -> None:
        self.cfg = cfg.faithfulness.cache
        self.digest = settings_digest(cfg, verifier)
        self.on_event = on_event or (lambda _event: None)

    def key(self, answer: Answer) -> str:
        return cache_key(self.cfg.redis_prefix, answer, self.digest)


class MemoryAnswerCache(_Keyed):
    """In-process (library callers, tests): the same rules, an LRU bounded by entries."""

    def __init__(
        self,
        cfg: GuardsConfig,
        verifier: str,
        on_event: OnEvent | None = None,
        max_entries: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(cfg, verifier, on_event)
        self._data: OrderedDict[str, tuple[float, bytes]] = OrderedDict()
        self._max = max_entries
        self._clock = clock

    async def get_many(self, answers: Sequence[Answer]) -> list[Assessment | None]:
        out: list[Assessment | None] = []
        now = self._clock()
        for answer in answers:
            key = self.key(answer)
            item = self._data.get(key)
            hit = _decode(item[1]) if item is not None and item[0] > now else None
            self.on_event("hit" if hit is not None else "miss")
            out.append(hit)
        return out

    async def put_many(self, items: Sequence[tuple[Answer, Assessment]]) -> None:
        expires = self._clock() + self.cfg.ttl_s
        for answer, assessment in items:
            if not cacheable(assessment, self.cfg.min_confidence):
                continue
            raw = _encode(assessment)
            if len(raw) > self.cfg.max_entry_bytes:
                continue
            self._data[self.key(answer)] = (expires, raw)
            self._data.move_to_end(self.key(answer))
            self.on_event("store")
            while len(self._data) > self._max:
                self._data.popitem(last=False)

    async def aclose(self) -> None:
        self._data.clear()


class RedisAnswerCache(_Keyed):
    """Shared by every worker and API replica; bounded waits; failures only cost time."""

    def __init__(
        self,
        client: aioredis.Redis | RedisCluster,
        cfg: GuardsConfig,
        verifier: str,
        on_event: OnEvent | None = None,
    ) -> None:
        super().__init__(cfg, verifier, on_event)
        if "{" in self.cfg.redis_prefix or "}" in self.cfg.redis_prefix:
            raise ValueError("faithfulness.cache.redis_prefix must not contain '{' or '}'")
        self.client = client

    async def get_many(self, answers: Sequence[Answer]) -> list[Assessment | None]:
        if not answers:
            return []
        try:
            async with asyncio.timeout(self.cfg.redis_timeout_s):
                pipe = self.client.pipeline(transaction=False)
                for answer in answers:
                    pipe.get(self.key(answer))
                raws = await pipe.execute()
        except (RedisError, OSError, TimeoutError) as exc:
            log.warning("answer cache read failed: %s", type(exc).__name__)
            self.on_event("error")
            return [None] * len(answers)
        out: list[Assessment | None] = []
        for raw in raws:
            hit = _decode(raw) if isinstance(raw, bytes) else None
            self.on_event("hit" if hit is not None else "miss")
            out.append(hit)
        return out

    async def put_many(self, items: Sequence[tuple[Answer, Assessment]]) -> None:
        keep = [
            (self.key(answer), raw)
            for answer, assessment in items
            if cacheable(assessment, self.cfg.min_confidence)
            and len(raw := _encode(assessment)) <= self.cfg.max_entry_bytes
        ]
        if not keep:
            return
        ttl_ms = max(1, int(self.cfg.ttl_s * 1000))
        try:
            async with asyncio.timeout(self.cfg.redis_timeout_s):
                pipe = self.client.pipeline(transaction=False)
                for key, raw in keep:
                    pipe.set(key, raw, px=ttl_ms)
                await pipe.execute()
        except (RedisError, OSError, TimeoutError) as exc:
            log.warning("answer cache write failed: %s", type(exc).__name__)
            self.on_event("error")
            return
        for _ in keep:
            self.on_event("store")

    async def aclose(self) -> None:
        await self.client.aclose()
