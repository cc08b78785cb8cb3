"""claim_id means one decision: the ledger of claim_ids the route stage has decided.

Kafka transactions make each *record* count once; they cannot see that a producer
published the same claim twice (a retry after a lost acknowledgement, a replayed export,
a bug that reuses ids). Without this ledger the second copy is decided again and can
reach `approved` a second time, or with different content under the same id.

Per tenant and claim_id, Redis keeps `digest|origin|tier` for `retention_s`:
* digest: a hash of the whole validated claim, so "the same claim" means every field;
* origin: `topic:partition:offset` where the claim was first published. The same origin
  seen again is the *same record* being reprocessed (an aborted transaction, a restarted
  stage): it is decided again as if new, which keeps exactly-once intact;
* tier: the decision, written once it is made (empty while the first copy is in flight).

A different origin with the same digest is a replay: no second decision, a note on
`audit`. A different digest is a reuse of the id: the claim goes to the dlq
(`claim_id_reused`). The check is one `SET NX GET` per claim, so it is atomic per key. On
a single Redis a batch's `SET`s run in one script call (`EVALSHA`): redis-py spends ~20 µs
of Python packing each command of a pipeline and reading its reply, which for two
`SET`s per claim was ~45 µs of the route stage's CPU per claim; one command with the
batch's keys and values costs a few µs per claim. A Redis Cluster refuses a script whose
keys fall in several slots, so there the `SET`s are pipelined per batch and the client
routes each by its key (keys carry the `{tenant}` hash tag). When Redis fails, the claims
are still decided but their uniqueness is unknown, and the validator fails them closed
to review like a failed dedup check.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError

from groundwire.guards.redis_client import connect
from groundwire.topics.records import Claim

log = logging.getLogger(__name__)


class Seen(Enum):
    NEW = "new"  # first time: decide it
    REPROCESSED = "reprocessed"  # the same record again (same origin): decide it again
    REPLAY = "replay"  # published again, same content: no second decision
    REUSED = "reused"  # the id was decided with other content: dlq
    UNKNOWN = "unknown"  # the ledger could not answer: decide, fail closed


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    claim: Claim
    origin: str
    # computed once: the check and the record both need it
    digest: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", claim_digest(self.claim))


@dataclass(frozen=True, slots=True)
class LedgerCheck:
    seen: Seen
    earlier_tier: str | None = None
    first_origin: str | None = None


def claim_digest(claim: Claim) -> str:
    # the serializer's bytes are model_dump_json()'s, without the str round trip
    return hashlib.sha256(claim.__pydantic_serializer__.to_json(claim)).hexdigest()[:32]


# KEYS: the batch's ledger keys; ARGV[1]: time to live (ms), then one value per key.
# Replies, in order, what each `SET` replied: the earlier value, or nil when it was set.
_CHECK = """
local out = {}
for i = 1, #KEYS do
  out[i] = redis.call('SET', KEYS[i], ARGV[i + 1], 'NX', 'GET', 'PX', ARGV[1])
end
return out
"""
# The same for recording decisions: only keys that are still there (`XX`).
_RECORD = """
for i = 1, #KEYS do
  redis.call('SET', KEYS[i], ARGV[i + 1], 'XX', 'PX', ARGV[1])
end
return #KEYS
"""


class ClaimLedger:
    def __init__(
        self, client: Any, prefix: str, retention_s: float, *, scripted: bool | None = None
    ) -> None:
        """`scripted`: one script call per batch (default on a single Redis) or a pipeline
        (a cluster's only way; bench/bench_ledger.py compares the two)."""
        self._client = client
        self._prefix = prefix
        self._ttl_ms = int(retention_s * 1000)
        if scripted is None:
            scripted = not isinstance(client, RedisCluster)
        self._scripts = (
            (client.register_script(_CHECK), client.register_script(_RECORD)) if scripted else None
        )

    def key(self, claim: Claim) -> str:
        # The {tenant} hash tag keeps a tenant's keys in one Redis Cluster slot.
        return f"{self._prefix}:{{{claim.tenant_id}}}:{claim.claim_id}"

    async def check(self, entries: Sequence[LedgerEntry]) -> list[LedgerCheck]:
        """Claim each id for its first origin; say how each entry was seen before."""
        if not entries:
            return []
        keys = [self.key(e.claim) for e in entries]
        values = [f"{e.digest}|{e.origin}|" for e in entries]
        try:
            replies = await self._set_all(keys, values, check=True)
        except (RedisError, OSError, TimeoutError) as exc:
            log.warning("claim ledger unavailable: %s", type(exc).__name__)
            return [LedgerCheck(Seen.UNKNOWN) for _ in entries]
        return [
            _judge(reply, entry.origin, entry.digest)
            for reply, entry in zip(replies, entries, strict=True)
        ]

    async def record(self, decided: Sequence[tuple[LedgerEntry, str]]) -> None:
        """Store each decision's tier, so a later replay can say what it was. Best effort:
        a failure only leaves the tier unknown on a later replay's audit note."""
        if not decided:
            return
        keys = [self.key(entry.claim) for entry, _ in decided]
        values = [f"{entry.digest}|{entry.origin}|{tier}" for entry, tier in decided]
        try:
            await self._set_all(keys, values, check=False)
        except (RedisError, OSError, TimeoutError) as exc:
            log.warning("claim ledger: decisions not recorded: %s", type(exc).__name__)

    async def _set_all(self, keys: list[str], values: list[str], *, check: bool) -> list[Any]:
        """`SET key value NX GET PX ttl` (check) or `SET key value XX PX ttl` for each pair,
        in one script call or, on a cluster, one pipeline; the replies in order."""
        if self._scripts is not None:
            script = self._scripts[0 if check else 1]
            reply = await script(keys=keys, args=[self._ttl_ms, *values])
            return list(reply) if check else []
        async with self._client.pipeline(transaction=False) as pipe:
            for key, value in zip(keys, values, strict=True):
                if check:
                    pipe.set(key, value, nx=True, get=True, px=self._ttl_ms)
                else:
                    pipe.set(key, value, xx=True, px=self._ttl_ms)
            replies: list[Any] = await pipe.execute()
        return replies

    async def aclose(self) -> None:
        await self._client.aclose()


def _judge(reply: bytes | None, origin: str, digest: str) -> LedgerCheck:
    if reply is None:
        return LedgerCheck(Seen.NEW)
    first_digest, first_origin, tier = reply.decode("utf-8", errors="replace").split("|", 2)
    if first_origin == origin:
        return LedgerCheck(Seen.REPROCESSED)
    if first_digest == digest:
        return LedgerCheck(Seen.REPLAY, tier or None, first_origin)
    return LedgerCheck(Seen.REUSED, tier or None, first_origin)


def build_claim_ledger(
    redis_url: str,
    *,
    prefix: str,
    retention_s: float,
    timeout_s: float,
    cluster: bool = False,
) -> ClaimLedger:
    client = connect(
        redis_url,
        socket_timeout_s=timeout_s,
        connect_timeout_s=timeout_s,
        retries=1,
        cluster=cluster,
    )
    return ClaimLedger(client, prefix, retention_s)
