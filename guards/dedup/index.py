"""Near-duplicate detection (spec: Near-duplicates): MinHash-LSH with exact confirmation.

`build_dedup_index(cfg, redis_url)` returns a `MinHashDedupIndex` implementing the
`DedupIndex` protocol. Its logic is one piece of code with two homes: the index tokenises,
hashes and bands a whole batch at once (numpy), then hands per-tenant items to a store
that decides them atomically: `MemoryStore` in-process, `RedisStore` as one Lua call per
tenant in one pipeline. Decisions are the exact Jaccard of the hashed word sets against
`cfg.threshold`, so they agree with a brute-force scan except where LSH misses a
candidate (probability <= `cfg.lsh_max_miss` at the threshold; see docs/dedup.md).

Which claims enter the index is the caller's decision, made per request with `insert`:
the streaming stage inserts claims it approves or queues for review and passes
`insert=False` for claims blocked for other reasons; a memory rejected in review or
superseded leaves through `remove`.

Fail closed: `check_and_insert` never raises for store trouble; every affected result
comes back `failed=True, error="dedup check failed: ..."` and the policy routes it to
review. The Redis client reconnects on its next command, so the same object recovers by
itself when Redis returns.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from groundwire.guards.config import DedupConfig
from groundwire.guards.dedup.memory import MemoryStore
from groundwire.guards.dedup.minhash import (
    Fingerprint,
    MinHasher,
    choose_bands,
    hash_token_sets,
    jaccard,
    tokenize,
)
from groundwire.guards.dedup.store import DUPLICATE, DedupStore, DedupStoreError, Item
from groundwire.guards.protocols import DedupRequest, DedupResult

__all__ = [
    "DedupStoreError",
    "MinHashDedupIndex",
    "build_dedup_index",
    "jaccard",
    "tokenize",
]

log = logging.getLogger(__name__)

_ID_BYTES_MAX = 1024
FAILED_PREFIX = "dedup check failed"


def _failed(reason: str) -> DedupResult:
    return DedupResult(is_duplicate=False, failed=True, error=f"{FAILED_PREFIX}: {reason}")


def _describe(exc: BaseException) -> str:
    """Class and message only: enough to diagnose, and Redis errors carry no credentials."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


class MinHashDedupIndex:
    """The DedupIndex: batch fingerprinting here, atomic per-tenant decisions in the store."""

    def __init__(self, cfg: DedupConfig, store: DedupStore, batch_timeout_s: float | None) -> None:
        if (cfg.lsh_bands is None) != (cfg.lsh_rows is None):
            raise ValueError("set both lsh_bands and lsh_rows, or neither")
        if cfg.lsh_bands is not None and cfg.lsh_rows is not None:
            bands, rows = cfg.lsh_bands, cfg.lsh_rows
        else:
            bands, rows = choose_bands(cfg.threshold, cfg.num_perm, cfg.lsh_max_miss)
        self.cfg = cfg
        self.hasher = MinHasher(cfg.num_perm, bands, rows, seed=cfg.seed)
        self.store = store
        self._batch_timeout_s = batch_timeout_s

    @property
    def bands(self) -> tuple[int, int]:
        return self.hasher.bands, self.hasher.rows

    def fingerprints(self, texts: Sequence[str]) -> list[Fingerprint]:
        """Hashed word sets and band keys of many texts, signatures in one numpy pass."""
        return self.hasher.fingerprints(hash_token_sets([tokenize(t) for t in texts]))

    async def check_and_insert(self, batch: Sequence[DedupRequest]) -> list[DedupResult]:
        results: list[DedupResult | None] = [None] * len(batch)
        groups: dict[str, list[Item]] = {}
        positions: dict[str, list[int]] = {}
        try:
            word_sets: list[frozenset[str]] = []
            valid: list[int] = []
            for i, req in enumerate(batch):
                problem = self._validate(req)
                if problem:
                    results[i] = _failed(problem)
                    continue
                words = tokenize(req.text)
                if len(words) > self.cfg.max_tokens:
                    results[i] = _failed(
                        f"text has {len(words)} distinct words, limit {self.cfg.max_tokens}"
                    )
                    continue
                word_sets.append(words)
                valid.append(i)
            token_sets = hash_token_sets(word_sets)
            for i, fp in zip(valid, self.hasher.fingerprints(token_sets), strict=True):
                req = batch[i]
                groups.setdefault(req.tenant_id, []).append(Item(req.claim_id, req.insert, fp))
                positions.setdefault(req.tenant_id, []).append(i)
        except Exception as exc:  # a bug in fingerprinting must still fail closed
            log.exception("dedup fingerprinting failed")
            return [r or _failed(_describe(exc)) for r in results]
        if groups:
            await self._decide(groups, positions, results)
        return [r or _failed("no decision") for r in results]

    async def _decide(
        self,
        groups: dict[str, list[Item]],
        positions: dict[str, list[int]],
        results: list[DedupResult | None],
    ) -> None:
        try:
            async with asyncio.timeout(self._batch_timeout_s):
                decided = await self.store.apply(groups, self.cfg.threshold)
        except Exception as exc:  # TimeoutError, ConnectionError, ...: fail closed, keep running
            log.warning("dedup store unavailable: %s", _describe(exc))
            decided = dict.fromkeys(groups, exc)
        for tenant, idx in positions.items():
            outcome = decided.get(tenant)
            if outcome is None or isinstance(outcome, Exception):
                failure = _failed(_describe(outcome) if outcome else "no answer")
                for i in idx:
                    results[i] = failure
                continue
            for i, d in zip(idx, outcome, strict=True):
                if d.status == DUPLICATE:
                    results[i] = DedupResult(True, d.duplicate_of, d.similarity)
                else:
                    results[i] = DedupResult(False)

    def _validate(self, req: DedupRequest) -> str | None:
        if not req.tenant_id or not req.claim_id:
            return "empty tenant_id or claim_id"
        try:
            if len(req.claim_id.encode("utf-8")) > _ID_BYTES_MAX:
                return "claim_id too long"
            if len(req.tenant_id.encode("utf-8")) > _ID_BYTES_MAX:
                return "tenant_id too long"
        except UnicodeEncodeError:
            return "ids are not valid UTF-8"
        return None

    async def remove(self, tenant_id: str, claim_id: str) -> bool:
        """Take a memory out of the index (rejected in review, superseded); False if absent.

        Deletes its band entries and stored word hashes. Raises DedupStoreError when the
        store is unreachable, so the caller (review service) can retry instead of believing
        the memory left.
        """
        try:
            async with asyncio.timeout(self._batch_timeout_s):
                found = await self.store.fetch_tokens(tenant_id, claim_id)
                if found is None:
                    return False
                handle, tokens = found
                fp = self.hasher.fingerprints([tokens])[0]
                return await self.store.delete(tenant_id, claim_id, handle, fp)
        except DedupStoreError:
            raise
        except Exception as exc:
            raise DedupStoreError(f"dedup remove failed: {_describe(exc)}") from exc

    async def aclose(self) -> None:
        await self.store.aclose()


def build_dedup_index(
    cfg: DedupConfig, redis_url: str | None = None, *, cluster: bool = False
) -> MinHashDedupIndex:
    """The index in memory (redis_url None) or in Redis (a single server, or a Redis Cluster
    when `cluster`); same decisions in every home."""
    if redis_url is None:
        return MinHashDedupIndex(cfg, MemoryStore(), batch_timeout_s=None)
    from groundwire.guards.dedup.redis_store import RedisStore
    from groundwire.guards.redis_client import connect

    client = connect(
        redis_url,
        socket_timeout_s=cfg.redis_socket_timeout_s,
        connect_timeout_s=cfg.redis_connect_timeout_s,
        retries=cfg.redis_retries,
        cluster=cluster,
    )
    store = RedisStore(client, cfg.redis_prefix, cfg.redis_shard_load)
    return MinHashDedupIndex(cfg, store, batch_timeout_s=cfg.redis_batch_timeout_s)
