"""The Redis home of the dedup index: per-tenant keys, one Lua call per tenant, one round trip.

A batch is grouped by tenant; each tenant's items go to one EVALSHA of
`dedup_lua.CHECK_AND_INSERT`, and all of a batch's EVALSHAs travel in one non-transactional
pipeline, so a batch costs one network round trip however many tenants it holds. Each
script call is atomic on its own (that is all atomicity needs: a tenant's keys never span
two calls), and its keys share the tenant's `{hash tag}` slot, which keeps it valid on
Redis Cluster.

Failure: the store never retries a script call itself beyond the client's bounded retry;
errors come back per tenant as exceptions and the index turns them into fail-closed
results. A retried call is harmless because check-and-insert is idempotent per claim_id.
After Redis restarts its script cache is empty: NOSCRIPT triggers one SCRIPT LOAD and a
re-run of just the affected tenants.
"""

from __future__ import annotations

import asyncio
import hashlib
from itertools import chain
from typing import Any

import numpy as np
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoScriptError

from groundwire.guards.dedup.lua import CHECK_AND_INSERT, DISCARD, FETCH_TOKENS, PROMOTE, REMOVE
from groundwire.guards.dedup.minhash import Fingerprint, Spellings
from groundwire.guards.dedup.store import (
    DUPLICATE,
    INDEXED,
    NOT_PENDING,
    PENDING_MATCH,
    UNIQUE,
    VARIANT,
    Contrasts,
    Decision,
    DedupStoreError,
    Item,
)

_NUM_KEYS = 6


def _contrast_words(contrasts: Contrasts) -> list[int]:
    """A claim's contrasts as the script reads them: per word its hash, the number of its
    forms, then the forms' hashes (4-byte words; no forms: a name)."""
    out: list[int] = []
    for word, forms in contrasts:
        out.append(word)
        out.append(len(forms))
        out.extend(forms)
    return out


def _spelling_words(spellings: Spellings) -> list[int]:
    """A claim's negation spellings as the script reads them: per negation its hash, the
    number of its one-word spellings, their hashes, the number of its auxiliaries, theirs."""
    out: list[int] = []
    for neg, singles, auxes in spellings:
        out.append(neg)
        out.append(len(singles))
        out.extend(singles)
        out.append(len(auxes))
        out.extend(auxes)
    return out


class _Script:
    """A Lua script addressed by its SHA1; loaded on demand (first use, or after a restart)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode("utf-8")).hexdigest()

    async def load(self, client: aioredis.Redis | RedisCluster) -> None:
        sha = await client.script_load(self.source)
        if sha != self.sha:
            raise DedupStoreError("Redis returned an unexpected script digest")


class RedisStore:
    def __init__(self, client: aioredis.Redis | RedisCluster, prefix: str, shard_load: int) -> None:
        if "{" in prefix or "}" in prefix:
            raise ValueError("the dedup key prefix must not contain '{' or '}' (hash tags)")
        self._client = client
        self._cluster = isinstance(client, RedisCluster)
        self._initialized = not self._cluster
        self._init_lock = asyncio.Lock()
        self._prefix = prefix
        self._shard_load = shard_load
        self._check = _Script(CHECK_AND_INSERT)
        self._fetch = _Script(FETCH_TOKENS)
        self._remove = _Script(REMOVE)
        self._promote = _Script(PROMOTE)
        self._discard = _Script(DISCARD)

    def keys(self, tenant_id: str) -> tuple[list[str], str]:
        """([meta, ids, records, pending ids, pending records, pending expiries],
        band-shard prefix) of one tenant, all in its hash-tag slot."""
        base = f"{self._prefix}:{{{tenant_id}}}:"
        names = ("m", "i", "r", "pi", "pr", "px")
        return [base + n for n in names], base + "b:"

    def _check_args(
        self,
        items: list[Item],
        threshold: float,
        band_prefix: str,
        now_ms: int,
        pending_until_ms: int,
    ) -> list[Any]:
        """The batch as a few blobs plus one claim_id each (layout in dedup.lua)."""
        fps = [item.fingerprint for item in items]
        counts = np.fromiter((fp.tokens.size for fp in fps), dtype=">u2", count=len(fps))
        tokens = np.concatenate([fp.tokens for fp in fps]) if fps else np.empty(0, np.uint32)
        bands = np.stack([fp.band_keys for fp in fps]) if fps else np.empty((0, 0), np.uint64)
        flags = "".join("012"[item.mode] for item in items)
        salts = (
            np.fromiter((item.salt for item in items), dtype=np.uint64, count=len(items))
            .astype(">u8")
            .tobytes()
            if any(item.salt for item in items)
            else b""
        )
        marks = [item.marks for item in items]
        mcounts = np.fromiter((len(m) for m in marks), dtype=">u2", count=len(marks))
        orders = [item.order for item in items]
        ocounts = np.fromiter((len(o) for o in orders), dtype=">u2", count=len(orders))
        cons = [_contrast_words(item.contrasts) for item in items]
        ccounts = np.fromiter((len(c) for c in cons), dtype=">u2", count=len(cons))
        spells = [_spelling_words(item.spellings) for item in items]
        scounts = np.fromiter((len(c) for c in spells), dtype=">u2", count=len(spells))
        return [
            band_prefix,
            repr(float(threshold)),
            self._shard_load,
            len(items),
            flags,
            counts.tobytes(),
            tokens.astype(">u4").tobytes(),
            bands.astype(">u8").tobytes(),
            bands.shape[1] * 8 if bands.ndim == 2 else 0,
            now_ms,
            pending_until_ms,
            salts,
            mcounts.tobytes(),
            np.fromiter(chain.from_iterable(marks), dtype=">u4").tobytes(),
            ocounts.tobytes(),
            np.fromiter(chain.from_iterable(orders), dtype=">u4").tobytes(),
            ccounts.tobytes(),
            np.fromiter(chain.from_iterable(cons), dtype=">u4").tobytes(),
            scounts.tobytes(),
            np.fromiter(chain.from_iterable(spells), dtype=">u4").tobytes(),
            *(item.claim_id for item in items),
        ]

    async def apply(
        self,
        groups: dict[str, list[Item]],
        threshold: float,
        *,
        now_ms: int = 0,
        pending_until_ms: int = 0,
    ) -> dict[str, list[Decision] | Exception]:
        calls = {t: (*self.keys(t), items) for t, items in groups.items()}
        times = (now_ms, pending_until_ms)
        replies = await self._run_check(calls, threshold, times)
        if any(isinstance(r, NoScriptError) for r in replies.values()):
            await self._check.load(self._client)
            retry = {t: calls[t] for t, r in replies.items() if isinstance(r, NoScriptError)}
            replies.update(await self._run_check(retry, threshold, times))
        out: dict[str, list[Decision] | Exception] = {}
        for tenant, reply in replies.items():
            if isinstance(reply, Exception):
                out[tenant] = reply
            else:
                try:
                    out[tenant] = _parse(reply, len(groups[tenant]))
                except DedupStoreError as exc:
                    out[tenant] = exc
        return out

    async def _run_check(
        self,
        calls: dict[str, tuple[list[str], str, list[Item]]],
        threshold: float,
        times: tuple[int, int],
    ) -> dict[str, Any]:
        tenants = list(calls)
        sha = self._check.sha
        if len(tenants) == 1:  # no pipeline bookkeeping for the common single-tenant batch
            keys, bprefix, items = calls[tenants[0]]
            args = self._check_args(items, threshold, bprefix, *times)
            try:
                return {tenants[0]: await self._client.evalsha(sha, _NUM_KEYS, *keys, *args)}
            except NoScriptError as exc:
                return {tenants[0]: exc}
        if self._cluster:
            # redis-py refuses EVALSHA in a cluster pipeline; concurrent calls, each routed to
            # its tenant's node over that node's connection, still cost one round trip of time.
            # The client must know the slot map first: concurrent first calls each start
            # their own discovery and tear down each other's connections (seen with 8.1).
            await self._ensure_initialized()

            async def one(tenant: str) -> Any:
                keys, bprefix, items = calls[tenant]
                args = self._check_args(items, threshold, bprefix, *times)
                return await self._client.evalsha(sha, _NUM_KEYS, *keys, *args)

            results = await asyncio.gather(*(one(t) for t in tenants), return_exceptions=True)
            return dict(zip(tenants, results, strict=True))
        pipe = self._client.pipeline(transaction=False)
        for tenant in tenants:
            keys, bprefix, items = calls[tenant]
            args = self._check_args(items, threshold, bprefix, *times)
            pipe.evalsha(sha, _NUM_KEYS, *keys, *args)
        results = await pipe.execute(raise_on_error=False)
        return dict(zip(tenants, results, strict=True))

    async def _ensure_initialized(self) -> None:
        if self._initialized:
            return
        async with self._init_lock:
            if not self._initialized:
                await self._client.initialize()
                self._initialized = True

    async def _evalsha(self, script: _Script, keys: list[str], args: list[Any]) -> Any:
        try:
            return await self._client.evalsha(script.sha, len(keys), *keys, *args)
        except NoScriptError:
            await script.load(self._client)
            return await self._client.evalsha(script.sha, len(keys), *keys, *args)

    async def fetch_tokens(
        self, tenant_id: str, claim_id: str
    ) -> tuple[str, np.ndarray, int] | None:
        keys, bprefix = self.keys(tenant_id)
        reply = await self._evalsha(self._fetch, keys, [bprefix, claim_id])
        if not reply:
            return None
        handle, salt, blob = reply
        tokens = np.frombuffer(blob, dtype=">u4").astype(np.uint32)
        return handle.decode(), tokens, int.from_bytes(salt, "big") if salt else 0

    async def delete(
        self, tenant_id: str, claim_id: str, handle: str, fingerprint: Fingerprint
    ) -> bool:
        keys, bprefix = self.keys(tenant_id)
        args = [bprefix, claim_id, handle, fingerprint.bands_blob()]
        return bool(await self._evalsha(self._remove, keys, args))

    async def promote(
        self,
        tenant_id: str,
        claim_id: str,
        threshold: float,
        *,
        now_ms: int = 0,
        marks: tuple[int, ...] = (),
        order: tuple[int, ...] = (),
        contrasts: Contrasts = (),
        spellings: Spellings = (),
    ) -> Decision:
        keys, bprefix = self.keys(tenant_id)
        marks_blob = np.array(marks, dtype=">u4").tobytes()
        order_blob = np.array(order, dtype=">u4").tobytes()
        con_blob = np.array(_contrast_words(contrasts), dtype=">u4").tobytes()
        args = [
            bprefix,
            repr(float(threshold)),
            claim_id,
            now_ms,
            marks_blob,
            order_blob,
            con_blob,
            np.array(_spelling_words(spellings), dtype=">u4").tobytes(),
        ]
        reply = await self._evalsha(self._promote, keys, args)
        if not isinstance(reply, list) or not reply:
            raise DedupStoreError("unexpected reply shape from the promote script")
        status = int(reply[0])
        if status == DUPLICATE and len(reply) == 4:
            return Decision(DUPLICATE, reply[1].decode("utf-8"), int(reply[2]), int(reply[3]))
        if status in (UNIQUE, INDEXED, NOT_PENDING) and len(reply) == 1:
            return Decision(status)
        raise DedupStoreError("unexpected reply from the promote script")

    async def discard(self, tenant_id: str, claim_id: str) -> bool:
        keys, bprefix = self.keys(tenant_id)
        return bool(await self._evalsha(self._discard, keys, [bprefix, claim_id]))

    async def aclose(self) -> None:
        await self._client.aclose()


def _parse(reply: Any, n: int) -> list[Decision]:
    """{statuses, then claim_id, intersection, union per duplicate, pending match or
    variant},
    checked for shape."""
    if not isinstance(reply, list) or not reply or len(reply[0]) != n:
        raise DedupStoreError("unexpected reply shape from the dedup script")
    statuses: bytes = reply[0]
    matches = statuses.count(b"2") + statuses.count(b"3") + statuses.count(b"5")
    if (len(reply) - 1) != 3 * matches:
        raise DedupStoreError("unexpected reply shape from the dedup script")
    out: list[Decision] = []
    pos = 1
    for ch in statuses:
        status = ch - 48
        if status in (DUPLICATE, PENDING_MATCH, VARIANT):
            cid, inter, union = reply[pos : pos + 3]
            pos += 3
            out.append(Decision(status, cid.decode("utf-8"), int(inter), int(union)))
        elif status in (UNIQUE, INDEXED):
            out.append(Decision(status))
        else:
            raise DedupStoreError(f"unexpected status {status!r} from the dedup script")
    return out
