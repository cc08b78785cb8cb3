"""The in-process home of the dedup index (`groundwire check` without --redis, tests, agents).

It runs the same decision as the Redis Lua script (`dedup_lua.CHECK_AND_INSERT`): look up
each band key, confirm every candidate with the exact Jaccard of the hashed word sets,
report the most similar memory above the threshold (ties: the earliest inserted), and
insert when unique. Internal ids are assigned in insertion order as in Redis, so both
homes break ties identically. State is lost with the process by design: this home is for
one-shot checks and for callers that rebuild it from their own store.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from groundwire.guards.dedup.minhash import Fingerprint
from groundwire.guards.dedup.store import DUPLICATE, INDEXED, UNIQUE, Decision, Item


@dataclass(slots=True)
class _Record:
    claim_id: str
    tokens: np.ndarray
    token_set: frozenset[int]


@dataclass(slots=True)
class _Tenant:
    next_id: int = 0
    ids: dict[str, int] = field(default_factory=dict)
    records: dict[int, _Record] = field(default_factory=dict)
    buckets: dict[bytes, list[int]] = field(default_factory=dict)


class MemoryStore:
    def __init__(self) -> None:
        self._tenants: dict[str, _Tenant] = {}
        # asyncio callers never interleave (no awaits inside); the lock covers threads.
        self._lock = threading.Lock()

    async def apply(
        self, groups: dict[str, list[Item]], threshold: float
    ) -> dict[str, list[Decision] | Exception]:
        with self._lock:
            return {t: self._apply_tenant(t, items, threshold) for t, items in groups.items()}

    def _apply_tenant(self, tenant_id: str, items: list[Item], threshold: float) -> list[Decision]:
        state = self._tenants.setdefault(tenant_id, _Tenant())
        out: list[Decision] = []
        for item in items:
            if item.claim_id in state.ids:
                out.append(Decision(INDEXED))
                continue
            fp = item.fingerprint
            query = frozenset(fp.tokens.tolist())
            keys = [k.tobytes() for k in fp.band_keys.astype(">u8")]
            best: tuple[float, int, int, int] | None = None  # (sim, id, inter, union)
            if query:
                seen: set[int] = set()
                for key in keys:
                    for mid in state.buckets.get(key, ()):
                        if mid in seen:
                            continue
                        seen.add(mid)
                        rec = state.records[mid]
                        inter = len(query & rec.token_set)
                        union = len(query) + len(rec.token_set) - inter
                        sim = inter / union
                        if sim > threshold and (
                            best is None or sim > best[0] or (sim == best[0] and mid < best[1])
                        ):
                            best = (sim, mid, inter, union)
            if best is not None:
                dup = state.records[best[1]].claim_id
                out.append(Decision(DUPLICATE, dup, best[2], best[3]))
                continue
            if item.insert and query:
                mid = state.next_id
                state.next_id += 1
                state.ids[item.claim_id] = mid
                state.records[mid] = _Record(item.claim_id, fp.tokens, query)
                for key in keys:
                    state.buckets.setdefault(key, []).append(mid)
            out.append(Decision(UNIQUE))
        return out

    async def fetch_tokens(self, tenant_id: str, claim_id: str) -> tuple[str, np.ndarray] | None:
        with self._lock:
            state = self._tenants.get(tenant_id)
            if state is None or claim_id not in state.ids:
                return None
            mid = state.ids[claim_id]
            return str(mid), state.records[mid].tokens

    async def delete(
        self, tenant_id: str, claim_id: str, handle: str, fingerprint: Fingerprint
    ) -> bool:
        with self._lock:
            state = self._tenants.get(tenant_id)
            if state is None or state.ids.get(claim_id) != int(handle):
                return False
            mid = state.ids.pop(claim_id)
            del state.records[mid]
            for k in fingerprint.band_keys.astype(">u8"):
                key = k.tobytes()
                kept = [m for m in state.buckets.get(key, ()) if m != mid]
                if kept:
                    state.buckets[key] = kept
                else:
                    state.buckets.pop(key, None)
            return True

    def size(self, tenant_id: str) -> int:
        """Indexed memories of one tenant (for tests and `groundwire check` summaries)."""
        state = self._tenants.get(tenant_id)
        return len(state.ids) if state else 0

    async def aclose(self) -> None:
        return None
