"""The memory view in Redis: what the memory stage maintains and the scan reads.

Keys of one tenant share its `{tenant}` hash tag (as the dedup index's do), so the
one write script (`lua.COMMIT`) touches only one Redis Cluster slot; the prefix is
`guards.consistency.redis_prefix` and the topic prefix, so deployments (and test runs)
sharing a Redis never see each other's memories:

| key | type | holds |
|---|---|---|
| `P:{T}:a` | hash | current memories: id -> MemoryRecord JSON |
| `P:{T}:h` | hash | history (superseded memories): id -> MemoryRecord JSON |
| `P:{T}:v` | hash | id -> version (the write script's check) |
| `P:{T}:sp` | hash | hash of (subject, predicate) -> ids of the current memories with it |
| `P:{T}:ops`, `P:{T}:opt` | hash, sorted set | op id -> what it wrote; when (`op_retention_s`) |
| `P:{T}:jm` | hash | the scan's verdicts by cluster fingerprint |
| `P:tenants` | sorted set | every tenant with memories (the scan pages it by name) |
| `P:scan:*` | strings | the scan's lease, resume cursor and claimed schedule slots |
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoScriptError

from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.guards.redis_client import connect
from groundwire.streams.memory import lua
from groundwire.topics.memory import MemoryRecord

Client = aioredis.Redis | RedisCluster


class ViewConflict(Exception):
    """The view changed under a batch (a replay, or a second writer): decide again."""


class Script:
    """A Lua script addressed by its SHA1, loaded on first use (or after a restart)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()

    async def __call__(self, client: Client, keys: Sequence[str], args: Sequence[Any]) -> Any:
        try:
            return await client.evalsha(self.sha, len(keys), *keys, *args)
        except NoScriptError:
            await client.script_load(self.source)
            return await client.evalsha(self.sha, len(keys), *keys, *args)


def sp_field(sp: str) -> str:
    """The index field of one (subject, predicate) key: bounded whatever the text."""
    return hashlib.blake2b(sp.encode("utf-8", "surrogatepass"), digest_size=10).hexdigest()


@dataclass(frozen=True, slots=True)
class Write:
    memory: MemoryRecord | None  # None: removed (retracted)
    memory_id: str
    expected_version: int  # what the view held when the batch read it (0 = absent)

    @property
    def where(self) -> str:
        if self.memory is None:
            return "-"
        return "a" if self.memory.active else "h"


@dataclass
class TenantState:
    """What one batch read of one tenant: memories by id, versions, the index, the ops."""

    records: dict[str, MemoryRecord] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)  # read from Redis (0 = absent)
    sp: dict[str, list[str]] = field(default_factory=dict)  # sp field -> active ids
    ops: dict[str, bytes] = field(default_factory=dict)  # op id -> log entry


class MemoryView:
    def __init__(self, client: Client, prefix: str, cfg: ConsistencyConfig) -> None:
        if "{" in prefix or "}" in prefix:
            raise ValueError("the memory view's key prefix must not contain '{' or '}'")
        # redis-py types its replies as unions of bytes, str and lists; this view always
        # decodes itself (decode_responses is off), so its replies are read as Any.
        self.client: Any = client
        self.prefix = prefix
        self.cfg = cfg
        self._commit = Script(lua.COMMIT)
        self.lease = Script(lua.LEASE)
        self.release = Script(lua.RELEASE)

    # -- keys ----------------------------------------------------------------------
    def key(self, tenant_id: str, name: str) -> str:
        return f"{self.prefix}:{{{tenant_id}}}:{name}"

    @property
    def tenants_key(self) -> str:
        return f"{self.prefix}:tenants"

    def scan_key(self, name: str) -> str:
        return f"{self.prefix}:scan:{name}"

    # -- reads -----------------------------------------------------------------------
    async def read(
        self,
        tenant_id: str,
        ids: Iterable[str],
        sp_fields: Iterable[str] = (),
        op_ids: Iterable[str] = (),
    ) -> TenantState:
        """Memories `ids` (current or history), index fields and op log entries."""
        state = TenantState()
        await self.extend(tenant_id, state, ids, sp_fields, op_ids)
        return state

    async def extend(
        self,
        tenant_id: str,
        state: TenantState,
        ids: Iterable[str] = (),
        sp_fields: Iterable[str] = (),
        op_ids: Iterable[str] = (),
    ) -> None:
        """Read into `state` what it does not hold yet (one round trip)."""
        want = sorted({i for i in ids if i not in state.versions})
        fields = sorted({f for f in sp_fields if f not in state.sp})
        ops = sorted({o for o in op_ids if o not in state.ops})
        if not (want or fields or ops):
            return
        pipe = self.client.pipeline(transaction=False)
        if want:
            pipe.hmget(self.key(tenant_id, "v"), want)
            pipe.hmget(self.key(tenant_id, "a"), want)
            pipe.hmget(self.key(tenant_id, "h"), want)
        if fields:
            pipe.hmget(self.key(tenant_id, "sp"), fields)
        if ops:
            pipe.hmget(self.key(tenant_id, "ops"), ops)
        replies = list(await pipe.execute())
        if want:
            versions, active, history = replies[:3]
            replies = replies[3:]
            for memory_id, version, a, h in zip(want, versions, active, history, strict=True):
                state.versions[memory_id] = int(version or 0)
                raw = a or h
                if raw:
                    state.records[memory_id] = MemoryRecord.model_validate_json(raw)
        if fields:
            for name, value in zip(fields, replies.pop(0), strict=True):
                state.sp[name] = value.decode().split() if value else []
        if ops:
            for name, value in zip(ops, replies.pop(0), strict=True):
                if value:
                    state.ops[name] = value

    async def user_memories(self, tenant_id: str, user_id: str) -> list[MemoryRecord]:
        """Every memory (current and history) of one user of a tenant."""
        needle = orjson.dumps(user_id)
        out: list[MemoryRecord] = []
        for name in ("a", "h"):
            async for _memory_id, raw in self._hscan(self.key(tenant_id, name)):
                if b'"user_id":' + needle in raw:
                    record = MemoryRecord.model_validate_json(raw)
                    if record.user_id == user_id:
                        out.append(record)
        return out

    async def _hscan(self, key: str) -> AsyncIterator[tuple[bytes, bytes]]:
        cursor = 0
        while True:
            cursor, page = await self.client.hscan(key, cursor, count=self.cfg.page_size)
            for item in page.items():
                yield item
            if not cursor:
                return

    async def active_pages(self, tenant_id: str) -> AsyncIterator[list[bytes]]:
        """A tenant's current memories, raw JSON, a page at a time."""
        cursor = 0
        key = self.key(tenant_id, "a")
        while True:
            cursor, page = await self.client.hscan(key, cursor, count=self.cfg.page_size)
            if page:
                yield list(page.values())
            if not cursor:
                return

    async def active_memories(self, tenant_id: str) -> list[MemoryRecord]:
        out: list[MemoryRecord] = []
        async for page in self.active_pages(tenant_id):
            out.extend(MemoryRecord.model_validate_json(raw) for raw in page)
        return out

    async def get(self, tenant_id: str, memory_id: str) -> MemoryRecord | None:
        state = await self.read(tenant_id, [memory_id])
        return state.records.get(memory_id)

    async def tenants(self, after: str | None, count: int) -> list[str]:
        """Tenants with memories, by name, strictly after `after`."""
        low = b"(" + after.encode("utf-8", "surrogatepass") if after is not None else b"-"
        names = await self.client.zrange(
            self.tenants_key, low, b"+", bylex=True, offset=0, num=count
        )
        return [n.decode("utf-8", "surrogatepass") for n in names]

    async def register_tenants(self, tenants: Iterable[str]) -> None:
        names = sorted(set(tenants))
        if names:
            await self.client.zadd(self.tenants_key, dict.fromkeys(names, 0))

    async def memo(self, tenant_id: str) -> dict[str, str]:
        raw = await self.client.hgetall(self.key(tenant_id, "jm"))
        return {k.decode(): v.decode() for k, v in raw.items()}

    async def save_memo(self, tenant_id: str, old: dict[str, str], new: dict[str, str]) -> None:
        """Keep the verdicts of the clusters this scan saw; forget the others."""
        key = self.key(tenant_id, "jm")
        pipe = self.client.pipeline(transaction=False)
        gone = [k for k in old if k not in new]
        if gone:
            pipe.hdel(key, *gone)
        changed = {k: v for k, v in new.items() if old.get(k) != v}
        if changed:
            pipe.hset(key, mapping=changed)
        if gone or changed:
            await pipe.execute()

    # -- the write -------------------------------------------------------------------
    async def commit(
        self,
        tenant_id: str,
        ops: Sequence[tuple[str, bytes]],
        writes: Sequence[Write],
        sp_updates: dict[str, list[str]],
        now_ms: int,
    ) -> None:
        """One atomic write of a tenant's changes; ViewConflict when the view moved."""
        keys = [self.key(tenant_id, n) for n in ("a", "h", "v", "sp", "ops", "opt")]
        cutoff = now_ms - int(self.cfg.op_retention_s * 1000)
        args: list[Any] = [now_ms, cutoff, len(ops)]
        for op_id, blob in ops:
            args += [op_id, blob]
        args.append(len(writes))
        for w in writes:
            body = w.memory.model_dump_json().encode() if w.memory is not None else b""
            version = w.memory.version if w.memory is not None else 0
            args += [w.memory_id, w.expected_version, version, w.where, body]
        args.append(len(sp_updates))
        for name, ids in sorted(sp_updates.items()):
            args += [name, " ".join(ids)]
        reply = await self._commit(self.client, keys, args)
        status = reply[0].decode() if isinstance(reply[0], bytes) else str(reply[0])
        if status != "ok":
            why = reply[1].decode() if len(reply) > 1 and isinstance(reply[1], bytes) else "?"
            raise ViewConflict(f"tenant {tenant_id!r}: {why}")

    async def aclose(self) -> None:
        await self.client.aclose()


def build_memory_view(
    redis_url: str, cfg: ConsistencyConfig, topic_prefix: str, *, cluster: bool = False
) -> MemoryView:
    client = connect(
        redis_url,
        socket_timeout_s=cfg.redis_timeout_s,
        connect_timeout_s=min(2.0, cfg.redis_timeout_s),
        retries=1,
        cluster=cluster,
    )
    return MemoryView(client, f"{cfg.redis_prefix}:{topic_prefix.rstrip('.')}", cfg)
