"""Redis key names of the review queue (layout in streams/review/lua.py).

Ids are hashed into key names instead of embedded: tenant and user ids may contain ':'
or braces, and "a:b" + "c" must never name the same key as "a" + "b:c". The scripts
compare the real ids stored in each item, so a hash collision could never cross owners.
"""

from __future__ import annotations

import hashlib
import secrets
import zlib
from dataclasses import dataclass

_QUEUE_ID_BYTES = 16  # 128 random bits: unguessable, and no owner's id is derivable


def _h(*parts: str) -> str:
    data = "\0".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def new_queue_id() -> str:
    """Hex, not base64url: one url-safe id in 64 began with '-', which a command line
    (`groundwire review show -x...`) parses as an option, not as the id."""
    return secrets.token_hex(_QUEUE_ID_BYTES)


def member(submitted_ms: int, queue_id: str) -> str:
    """The zset member: zero-padded time first, so lexical order is time order."""
    return f"{submitted_ms:013d}:{queue_id}"


@dataclass(frozen=True, slots=True)
class Keys:
    prefix: str
    shards: int

    def shard_of(self, tenant_id: str) -> int:
        """A tenant's shard: all its keys and its outbox share one hash-tag slot."""
        return zlib.crc32(tenant_id.encode("utf-8", "surrogatepass")) % self.shards

    def base(self, shard: int) -> str:
        return f"{self.prefix}:{{{shard}}}:"

    def base_of(self, tenant_id: str) -> str:
        return self.base(self.shard_of(tenant_id))

    @staticmethod
    def tenant_hash(tenant_id: str) -> str:
        return _h("t", tenant_id)

    @staticmethod
    def owner_hash(tenant_id: str, user_id: str) -> str:
        return _h("o", tenant_id, user_id)

    @staticmethod
    def claim_hash(claim_id: str) -> str:
        return _h("c", claim_id)

    def item(self, tenant_id: str, queue_id: str) -> str:
        return f"{self.base_of(tenant_id)}i:{queue_id}"

    def owner_zset(self, tenant_id: str, user_id: str) -> str:
        return f"{self.base_of(tenant_id)}o:{self.owner_hash(tenant_id, user_id)}"

    def tenant_zset(self, tenant_id: str) -> str:
        return f"{self.base_of(tenant_id)}t:{self.tenant_hash(tenant_id)}"

    def claim(self, tenant_id: str, claim_id: str) -> str:
        th, ch = self.tenant_hash(tenant_id), self.claim_hash(claim_id)
        return f"{self.base_of(tenant_id)}c:{th}:{ch}"

    def all(self, shard: int) -> str:
        return f"{self.base(shard)}a"

    def outbox(self, shard: int) -> str:
        return f"{self.base(shard)}x"

    def lease(self, shard: int) -> str:
        return f"{self.base(shard)}lease"

    def session(self, digest: str) -> str:
        """A browser session (not shard-bound: one key, one slot of its own)."""
        return f"{self.prefix}:s:{digest}"
