"""The review queue in Redis: enqueue, list, get, approve/reject, and the outbox.

Every operation is one Lua script on one shard (streams/review/lua.py), so each is
atomic and costs one round trip; a batch of enqueues is one script per shard in one
pipeline. The store knows nothing of HTTP or Kafka: it takes a `Reviewer` (from a
verified credential) and returns plain values; the API decides what a caller sees.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoScriptError

from groundwire.streams.review import lua
from groundwire.streams.review.config import ReviewConfig
from groundwire.streams.review.keys import Keys, member, new_queue_id
from groundwire.streams.review.rules import Reviewer
from groundwire.topics.vocab import ReviewDecision, ReviewDenial, ReviewLimit

RedisClient = aioredis.Redis | RedisCluster


class ReviewStoreError(RuntimeError):
    """Redis answered something the scripts never send (a bug or a foreign key)."""


class _Script:
    """A Lua script addressed by its SHA1, loaded again after NOSCRIPT (Redis restarted)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode("utf-8")).hexdigest()

    async def __call__(self, client: RedisClient, keys: Sequence[str], args: Sequence[Any]) -> Any:
        try:
            return await client.evalsha(self.sha, len(keys), *keys, *args)
        except NoScriptError:
            await client.script_load(self.source)
            return await client.evalsha(self.sha, len(keys), *keys, *args)


@dataclass(frozen=True, slots=True)
class NewItem:
    """A flagged claim on its way into the queue (built by the feed)."""

    tenant_id: str
    owner: str
    claim_id: str
    submitted_ms: int
    record: bytes  # the routed record, JSON
    origin: str  # topic:partition:offset of the review record


@dataclass(frozen=True, slots=True)
class Enqueued:
    """What the queue did with one NewItem. A claim_id it has seen before keeps its first
    outcome (`seen`: 'new', 'replay' = the same review record again, 'duplicate' = another
    record of the same claim), so replays produce the same outputs."""

    state: str  # queued | overflow | approve | reject (already decided)
    queue_id: str
    submitted_ms: int
    seen: str
    limit: ReviewLimit | None

    @property
    def overflow(self) -> bool:
        return self.state == "overflow"


@dataclass(frozen=True, slots=True)
class Pending:
    queue_id: str
    owner: str
    submitted_ms: int
    record: bytes


@dataclass(frozen=True, slots=True)
class Page:
    items: list[Pending]
    cursor: str  # "" when there is nothing older


@dataclass(frozen=True, slots=True)
class Decided:
    queue_id: str
    claim_id: str
    owner: str
    role: str
    submitted_ms: int
    decided_ms: int
    entry_id: str


@dataclass(frozen=True, slots=True)
class Refused:
    """The claim is missing or not the caller's. Callers answer both alike; `denial`
    (which of the two) is for metrics and the audit event only."""

    denial: ReviewDenial


_SEEN = {"2": "new", "1": "replay", "0": "duplicate"}


def _s(value: Any) -> str:
    return value.decode("utf-8", "surrogatepass") if isinstance(value, bytes) else str(value)


class ReviewStore:
    def __init__(
        self,
        client: RedisClient,
        cfg: ReviewConfig,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.cfg = cfg
        self.keys = Keys(cfg.redis_prefix, cfg.shards)
        self._clock = clock
        self._enqueue = _Script(lua.ENQUEUE)
        self._cluster_ready = not isinstance(client, RedisCluster)
        self._cluster_lock = asyncio.Lock()
        self._list = _Script(lua.LIST)
        self._get = _Script(lua.GET)
        self._decide = _Script(lua.DECIDE)
        self._audit = _Script(lua.AUDIT)

    def now_ms(self) -> int:
        return int(self._clock() * 1000)

    # -- the feed ------------------------------------------------------------------
    async def enqueue(self, items: Sequence[NewItem]) -> list[Enqueued]:
        """Queue each item unless its claim_id is known (idempotent), or block it when its
        owner's queue or the shard is full. Items of one shard go in one script call, in
        order; all shards' calls run concurrently."""
        by_shard: dict[int, list[int]] = {}
        for i, item in enumerate(items):
            by_shard.setdefault(self.keys.shard_of(item.tenant_id), []).append(i)
        out: list[Enqueued | None] = [None] * len(items)

        async def one(shard: int, idx: list[int]) -> None:
            args: list[Any] = [
                self.keys.base(shard),
                self.cfg.max_per_owner,
                self.cfg.max_per_shard,
                int(self.cfg.claim_retention_s),
                len(idx),
            ]
            for i in idx:
                it = items[i]
                qid = new_queue_id()
                args += [
                    self.keys.tenant_hash(it.tenant_id),
                    self.keys.owner_hash(it.tenant_id, it.owner),
                    self.keys.claim_hash(it.claim_id),
                    qid,
                    it.tenant_id,
                    it.owner,
                    it.claim_id,
                    it.submitted_ms,
                    member(it.submitted_ms, qid),
                    it.origin,
                    it.record,
                ]
            reply = await self._enqueue(self.client, [self.keys.all(shard)], args)
            if not isinstance(reply, list) or len(reply) != 5 * len(idx):
                raise ReviewStoreError("unexpected reply from the enqueue script")
            for n, i in enumerate(idx):
                state, qid_b, sub, seen, lim = reply[5 * n : 5 * n + 5]
                limit = _s(lim)
                out[i] = Enqueued(
                    state=_s(state),
                    queue_id=_s(qid_b),
                    submitted_ms=int(sub),
                    seen=_SEEN[_s(seen)],
                    limit=ReviewLimit(limit) if limit else None,
                )

        if len(by_shard) > 1:
            await self._ready_for_concurrent_calls()
        await asyncio.gather(*(one(s, idx) for s, idx in by_shard.items()))
        return [o for o in out if o is not None]

    async def _ready_for_concurrent_calls(self) -> None:
        """On a Redis Cluster, learn the slot map and load the enqueue script on every
        primary once, before shards are written concurrently: concurrent first calls
        each rebuilt the client's connections and broke each other's (redis-py 8.1: a
        connection without a writer, mid-connect), as the dedup index found before."""
        if self._cluster_ready:
            return
        async with self._cluster_lock:
            if not self._cluster_ready:
                assert isinstance(self.client, RedisCluster)
                await self.client.initialize()
                await self.client.script_load(self._enqueue.source)
                self._cluster_ready = True

    # -- reviewers -----------------------------------------------------------------
    async def list(
        self,
        reviewer: Reviewer,
        *,
        owner: str | None,
        limit: int,
        cursor: str,
        request_id: str,
    ) -> Page:
        """A page of pending claims, newest first: the reviewer's own, or (tenant admins)
        one owner's or, with `owner` None and the admin role, the whole tenant's. The
        caller has checked `rules.may_list`; the script checks every item again."""
        tenant = reviewer.tenant_id
        if reviewer.admin and owner is None:
            zset = self.keys.tenant_zset(tenant)
        else:
            zset = self.keys.owner_zset(tenant, owner if owner is not None else reviewer.user_id)
        shard = self.keys.shard_of(tenant)
        reply = await self._list(
            self.client,
            [zset, self.keys.outbox(shard)],
            [
                self.keys.base(shard),
                tenant,
                reviewer.user_id,
                reviewer.role.value,
                "1" if reviewer.admin else "0",
                limit,
                cursor,
                self.now_ms(),
                request_id,
            ],
        )
        if not isinstance(reply, list) or (len(reply) - 1) % 4:
            raise ReviewStoreError("unexpected reply from the list script")
        items = [
            Pending(_s(reply[i]), _s(reply[i + 2]), int(reply[i + 1]), bytes(reply[i + 3]))
            for i in range(1, len(reply), 4)
        ]
        return Page(items, _s(reply[0]))

    async def get(self, reviewer: Reviewer, queue_id: str, request_id: str) -> Pending | Refused:
        """The pending claim, or Refused when it is missing *or* not the reviewer's: the
        two are one answer to the caller (no existence oracle), and both are audited."""
        tenant = reviewer.tenant_id
        shard = self.keys.shard_of(tenant)
        reply = await self._get(
            self.client,
            [self.keys.item(tenant, queue_id), self.keys.outbox(shard)],
            [
                tenant,
                reviewer.user_id,
                "1" if reviewer.admin else "0",
                self.now_ms(),
                request_id,
                queue_id,
            ],
        )
        if not isinstance(reply, list) or not reply:
            raise ReviewStoreError("unexpected reply from the get script")
        if _s(reply[0]) != "ok":
            return Refused(ReviewDenial(_s(reply[1])))
        return Pending(queue_id, _s(reply[3]), int(reply[2]), bytes(reply[5]))

    async def decide(
        self,
        reviewer: Reviewer,
        queue_id: str,
        decision: ReviewDecision,
        reason: str,
        request_id: str,
    ) -> Decided | Refused:
        """Approve or reject: the item leaves the queue and the decision enters the
        outbox in one atomic step; Refused when missing or not the reviewer's (audited).
        Of two racing decisions on one claim, exactly one gets a `Decided`."""
        tenant = reviewer.tenant_id
        shard = self.keys.shard_of(tenant)
        now = self.now_ms()
        reply = await self._decide(
            self.client,
            [self.keys.item(tenant, queue_id), self.keys.all(shard), self.keys.outbox(shard)],
            [
                tenant,
                reviewer.user_id,
                "1" if reviewer.admin else "0",
                decision.value,
                reason,
                now,
                request_id,
                int(self.cfg.claim_retention_s),
                queue_id,
            ],
        )
        if not isinstance(reply, list) or not reply:
            raise ReviewStoreError("unexpected reply from the decide script")
        if _s(reply[0]) != "ok":
            return Refused(ReviewDenial(_s(reply[1])))
        return Decided(
            queue_id=queue_id,
            claim_id=_s(reply[4]),
            owner=_s(reply[3]),
            role=_s(reply[1]),
            submitted_ms=int(reply[2]),
            decided_ms=now,
            entry_id=_s(reply[5]),
        )

    async def contents_of(self, reviewer: Reviewer, claim_ids: Sequence[str]) -> dict[str, str]:
        """The content of those claims that are pending and that `reviewer` may see: what a
        pending claim nearly duplicates, shown beside it. Another owner's claim stays
        hidden (only its id, which is on the reviewer's own record, is shown). Read-only."""
        from groundwire.streams.review.rules import role_for

        tenant = reviewer.tenant_id
        wanted = list(dict.fromkeys(c for c in claim_ids if c))[:100]
        if not wanted:
            return {}
        pipe = self.client.pipeline(transaction=False)
        for claim_id in wanted:
            pipe.hmget(self.keys.claim(tenant, claim_id), "st", "q")
        states = await pipe.execute()
        queued = [
            (c, _s(st[1]))
            for c, st in zip(wanted, states, strict=True)
            if st[0] is not None and _s(st[0]) == "queued" and st[1]
        ]
        if not queued:
            return {}
        pipe = self.client.pipeline(transaction=False)
        for _, qid in queued:
            pipe.hmget(self.keys.item(tenant, qid), "t", "o", "d")
        items = await pipe.execute()
        found: dict[str, str] = {}
        for (claim_id, _), (t, o, d) in zip(queued, items, strict=True):
            if t is None or d is None or role_for(reviewer, _s(t), _s(o)) is None:
                continue
            found[claim_id] = str(orjson.loads(d)["claim"]["content"])
        return found

    async def audit(self, tenant_id: str, fields: dict[str, str]) -> None:
        """An audit-only action (a refused credential, a refused request) into the outbox
        of `tenant_id`'s shard ("" when the caller has no tenant: shard of "")."""
        shard = self.keys.shard_of(tenant_id)
        flat: list[str] = []
        for key, value in fields.items():
            flat += [key, value]
        await self._audit(self.client, [self.keys.outbox(shard)], flat)

    # -- gauges --------------------------------------------------------------------
    async def depth(self) -> tuple[int, float | None]:
        """(pending claims in every shard, submission time in s of the oldest or None)."""
        total, oldest = 0, None
        for shard in range(self.cfg.shards):
            key = self.keys.all(shard)
            total += int(await self.client.zcard(key))
            first = await self.client.zrange(key, 0, 0)
            if first:
                ms = int(_s(first[0])[:13])
                oldest = ms if oldest is None else min(oldest, ms)
        return total, (oldest / 1000 if oldest is not None else None)

    async def outbox_length(self) -> int:
        total = 0
        for shard in range(self.cfg.shards):
            total += int(await self.client.xlen(self.keys.outbox(shard)))
        return total

    async def ping(self) -> bool:
        return bool(await self.client.ping())
