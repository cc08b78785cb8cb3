"""Near-duplicate detection (spec: Near-duplicates): MinHash-LSH with exact confirmation.

`build_dedup_index(cfg, redis_url)` returns a `MinHashDedupIndex` implementing the
`DedupIndex` protocol. Its logic is one piece of code with two homes: the index tokenises,
hashes and bands a whole batch at once (numpy), then hands per-tenant items to a store
that decides them atomically: `MemoryStore` in-process, `RedisStore` as one Lua call per
tenant in one pipeline. Decisions are the exact Jaccard of the hashed word sets against
`cfg.threshold`, so they agree with a brute-force scan except where LSH misses a
candidate (probability <= `cfg.lsh_max_miss` at the threshold; see docs/dedup.md).

Which claims enter the index is the caller's decision, made per request: the validator
inserts claims it approves as memories, claims it queues for review as *pending* entries
(`pending=True`: reported to later near-duplicates as `pending_of`, never as the original
of a duplicate), and passes `insert=False` for claims blocked for other reasons. A pending
claim a person approves becomes a memory through `promote`; a memory or pending entry that
is rejected or superseded leaves through `remove`. Pending entries expire after
`cfg.pending_retention_s`.

Scope (`cfg.scope`): `tenant` compares a claim with every memory of its tenant; `user` and
`user_and_type` only with those of the same user (and memory type). The scope salts the
band keys, so claims of other scopes are never candidates, and keys stay per tenant (one
hash-tag slot, one script call per tenant per batch).

Fail closed: `check_and_insert` never raises for store trouble; every affected result
comes back `failed=True, error="dedup check failed: ..."` and the policy routes it to
review. The Redis client reconnects on its next command, so the same object recovers by
itself when Redis returns.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Callable, Sequence

import numpy as np

from groundwire.guards.config import DedupConfig
from groundwire.guards.dedup.memory import MemoryStore
from groundwire.guards.dedup.minhash import (
    Fingerprint,
    MinHasher,
    Spelling,
    Spellings,
    choose_bands,
    claim_parts,
    contrast_hashes,
    hash_token_sets,
    jaccard,
    marks,
    order_hashes,
    ordered_tokens,
    spelling_hashes,
    token_hash,
    tokenize,
)
from groundwire.guards.dedup.store import (
    DUPLICATE,
    LOOK,
    MEMORY,
    NOT_PENDING,
    PENDING,
    PENDING_MATCH,
    VARIANT,
    Contrasts,
    Decision,
    DedupStore,
    DedupStoreError,
    Item,
)
from groundwire.guards.protocols import DedupRequest, DedupResult

__all__ = [
    "DedupStoreError",
    "MinHashDedupIndex",
    "build_dedup_index",
    "jaccard",
    "scope_key",
    "tokenize",
]

log = logging.getLogger(__name__)

_ID_BYTES_MAX = 1024
FAILED_PREFIX = "dedup check failed"


_UNIQUE = DedupResult(is_duplicate=False)


def _mark_hashes(words: frozenset[str], names: list[str]) -> tuple[int, ...]:
    """The hashes of a claim's negations, numbers and names inside a sentence (most
    claims have none)."""
    found = marks(words) + names
    return tuple(token_hash(w) for w in found) if found else ()


def _order_hashes(breaks: list[str]) -> tuple[int, ...]:
    """The hashes of a claim's content words in order, `PIECE_BREAK` between the pieces
    of a list (the role-swap check, `minhash.order_breaks`)."""
    return order_hashes(breaks)


def _contrast_hashes(tokens: tuple[str, ...], openers: list[str]) -> Contrasts:
    """The hashes of the names that open the claim's sentences and of its words with
    antonyms, each with its antonyms' forms (`minhash.contrasts`)."""
    return contrast_hashes(tokens, openers)


def _failed(reason: str) -> DedupResult:
    return DedupResult(is_duplicate=False, failed=True, error=f"{FAILED_PREFIX}: {reason}")


def scope_key(scope: str, user_id: str, memory_type: str) -> str:
    """The key of the memories a claim is compared with, inside its tenant: "" for scope
    `tenant`; the user id for `user`; user id and memory type (trimmed, case-folded) for
    `user_and_type`. Claims without a user_id share the scope of the empty user id."""
    if scope == "tenant":
        return ""
    if scope == "user":
        return f"user\0{user_id}"
    if scope == "user_and_type":
        return f"user_and_type\0{user_id}\0{memory_type.strip().casefold()}"
    raise ValueError(f"unknown dedup scope {scope!r}")


def scope_salt(key: str) -> int:
    """A nonzero 64-bit salt for a scope key ("" -> 0: unsalted band keys, the layout of an
    index built before scopes existed). XORed into every band key of the claim."""
    if not key:
        return 0
    digest = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") or 1


def _salted(fp: Fingerprint, salt: int) -> Fingerprint:
    if not salt:
        return fp
    return Fingerprint(tokens=fp.tokens, band_keys=fp.band_keys ^ np.uint64(salt))


def _describe(exc: BaseException) -> str:
    """Class and message only: enough to diagnose, and Redis errors carry no credentials."""
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


class MinHashDedupIndex:
    """The DedupIndex: batch fingerprinting here, atomic per-tenant decisions in the store."""

    def __init__(
        self,
        cfg: DedupConfig,
        store: DedupStore,
        batch_timeout_s: float | None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
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
        self._clock = clock  # seconds since the epoch: pending entries' retention

    def _now_ms(self) -> int:
        return int(self._clock() * 1000)

    @property
    def bands(self) -> tuple[int, int]:
        return self.hasher.bands, self.hasher.rows

    def fingerprints(self, texts: Sequence[str]) -> list[Fingerprint]:
        """Hashed word sets and band keys of many texts, signatures in one numpy pass."""
        return self.hasher.fingerprints(hash_token_sets([ordered_tokens(t) for t in texts]))

    async def check_and_insert(self, batch: Sequence[DedupRequest]) -> list[DedupResult]:
        results: list[DedupResult | None] = [None] * len(batch)
        groups: dict[str, list[Item]] = {}
        positions: dict[str, list[int]] = {}
        try:
            word_sets: list[tuple[str, ...]] = []
            name_sets: list[tuple[list[str], list[str], list[str], list[Spelling]]] = []
            valid: list[int] = []
            for i, req in enumerate(batch):
                problem = self._validate(req)
                if problem:
                    results[i] = _failed(problem)
                    continue
                words, names, openers, breaks, spells = claim_parts(req.text)
                if len(words) > self.cfg.max_tokens:
                    results[i] = _failed(
                        f"text has {len(words)} distinct words, limit {self.cfg.max_tokens}"
                    )
                    continue
                word_sets.append(words)
                name_sets.append((names, openers, breaks, spells))
                valid.append(i)
            token_sets = hash_token_sets(word_sets)
            salts: dict[str, int] = {}
            fps = self.hasher.fingerprints(token_sets)
            for k, (i, fp) in enumerate(zip(valid, fps, strict=True)):
                req = batch[i]
                salt = salts.get(req.scope)
                if salt is None:
                    salt = salts[req.scope] = scope_salt(req.scope)
                mode = (PENDING if req.pending else MEMORY) if req.insert else LOOK
                fp = _salted(fp, salt) if salt else fp
                words = word_sets[k]
                names, openers, breaks, spells = name_sets[k]
                item = Item(
                    req.claim_id,
                    mode,
                    fp,
                    salt,
                    _mark_hashes(frozenset(words), names),
                    _order_hashes(breaks),
                    _contrast_hashes(words, openers),
                    spelling_hashes(spells),
                )
                group = groups.get(req.tenant_id)
                if group is None:
                    group = groups[req.tenant_id] = []
                    positions[req.tenant_id] = []
                group.append(item)
                positions[req.tenant_id].append(i)
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
        now = self._now_ms()
        until = now + int(self.cfg.pending_retention_s * 1000)
        try:
            async with asyncio.timeout(self._batch_timeout_s):
                decided = await self.store.apply(
                    groups, self.cfg.threshold, now_ms=now, pending_until_ms=until
                )
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
                elif d.status == VARIANT:
                    results[i] = DedupResult(
                        False, variant_of=d.duplicate_of, variant_similarity=d.similarity
                    )
                elif d.status == PENDING_MATCH:
                    results[i] = DedupResult(
                        False, pending_of=d.duplicate_of, pending_similarity=d.similarity
                    )
                else:
                    results[i] = _UNIQUE  # frozen: one shared instance

    def _validate(self, req: DedupRequest) -> str | None:
        if not req.tenant_id or not req.claim_id:
            return "empty tenant_id or claim_id"
        if req.claim_id.isascii() and req.tenant_id.isascii():  # one byte per character
            if len(req.claim_id) > _ID_BYTES_MAX:
                return "claim_id too long"
            if len(req.tenant_id) > _ID_BYTES_MAX:
                return "tenant_id too long"
            return None
        try:
            if len(req.claim_id.encode("utf-8")) > _ID_BYTES_MAX:
                return "claim_id too long"
            if len(req.tenant_id.encode("utf-8")) > _ID_BYTES_MAX:
                return "tenant_id too long"
        except UnicodeEncodeError:
            return "ids are not valid UTF-8"
        return None

    async def promote(
        self, tenant_id: str, claim_id: str, text: str | None = None, *, scope: str = ""
    ) -> DedupResult:
        """A claim that was queued for review has been approved: make it a memory.

        Its pending entry becomes a memory in one atomic step. When there is no live pending
        entry (it expired after `pending_retention_s`, the dedup check had failed, or it was
        never queued) and `text` is given, the text is checked and inserted as a memory
        instead, with the claim's `scope` (`scope_key`). Either way a memory that is now a
        near-duplicate of it wins: the result is a duplicate (`duplicate_of`, `similarity`)
        and nothing is inserted, so the caller can discard or merge instead of storing two
        copies. A memory it is only a variant of (they differ in a negation or a number)
        does not stop it: the person approved the difference. Idempotent: an id that is
        already a memory is reported unique.

        Raises DedupStoreError when the store is unreachable (the caller retries), and
        LookupError when the claim is not pending and no `text` was given.
        """
        problem = self._validate(DedupRequest(tenant_id, claim_id, text or ""))
        if problem:
            raise ValueError(problem)
        words, names, openers, breaks, spells_ = claim_parts(text) if text else ((), [], [], [], [])
        marks = _mark_hashes(frozenset(words), names) if words else ()
        order = _order_hashes(breaks) if words else ()
        kinds = _contrast_hashes(words, openers) if words else ()
        spells = spelling_hashes(spells_) if words else ()
        d = await self._promote_pending(tenant_id, claim_id, marks, order, kinds, spells)
        if d.status == DUPLICATE:
            return DedupResult(True, d.duplicate_of, d.similarity)
        if d.status != NOT_PENDING:
            return DedupResult(False)
        if text is None:
            raise LookupError(f"{claim_id!r} is not pending review; pass its text to index it")
        (result,) = await self.check_and_insert(
            [DedupRequest(tenant_id, claim_id, text, insert=True, scope=scope)]
        )
        if result.failed:
            raise DedupStoreError(result.error or "dedup promote failed")
        if result.variant_of is not None:
            # checked in as a variant, so queued as pending: approved, it is a memory
            d = await self._promote_pending(tenant_id, claim_id, marks, order, kinds, spells)
            if d.status == DUPLICATE:  # a copy approved in between
                return DedupResult(True, d.duplicate_of, d.similarity)
            return DedupResult(False)
        return DedupResult(result.is_duplicate, result.duplicate_of, result.similarity)

    async def _promote_pending(
        self,
        tenant_id: str,
        claim_id: str,
        marks: tuple[int, ...],
        order: tuple[int, ...],
        kinds: Contrasts = (),
        spells: Spellings = (),
    ) -> Decision:
        try:
            async with asyncio.timeout(self._batch_timeout_s):
                return await self.store.promote(
                    tenant_id,
                    claim_id,
                    self.cfg.threshold,
                    now_ms=self._now_ms(),
                    marks=marks,
                    order=order,
                    contrasts=kinds,
                    spellings=spells,
                )
        except DedupStoreError:
            raise
        except Exception as exc:
            raise DedupStoreError(f"dedup promote failed: {_describe(exc)}") from exc

    async def remove(self, tenant_id: str, claim_id: str) -> bool:
        """Take a claim out of the index: a memory (rejected later, superseded) or a pending
        entry (rejected in review); False if it is neither.

        Deletes its band entries and stored word hashes. Raises DedupStoreError when the
        store is unreachable, so the caller (review service) can retry instead of believing
        the memory left.
        """
        try:
            async with asyncio.timeout(self._batch_timeout_s):
                found = await self.store.fetch_tokens(tenant_id, claim_id)
                if found is None:
                    return await self.store.discard(tenant_id, claim_id)
                handle, tokens, salt = found
                fp = _salted(self.hasher.fingerprints([tokens])[0], salt)
                return await self.store.delete(tenant_id, claim_id, handle, fp)
        except DedupStoreError:
            raise
        except Exception as exc:
            raise DedupStoreError(f"dedup remove failed: {_describe(exc)}") from exc

    async def aclose(self) -> None:
        await self.store.aclose()


def build_dedup_index(
    cfg: DedupConfig,
    redis_url: str | None = None,
    *,
    cluster: bool = False,
    clock: Callable[[], float] = time.time,
) -> MinHashDedupIndex:
    """The index in memory (redis_url None) or in Redis (a single server, or a Redis Cluster
    when `cluster`); same decisions in every home. `clock` (seconds since the epoch) times
    pending entries' retention."""
    if redis_url is None:
        return MinHashDedupIndex(cfg, MemoryStore(), batch_timeout_s=None, clock=clock)
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
    return MinHashDedupIndex(cfg, store, batch_timeout_s=cfg.redis_batch_timeout_s, clock=clock)
