"""The in-process home of the dedup index (`groundwire check` without --redis, tests, agents).

It runs the same decision as the Redis Lua scripts (`dedup.lua`): look up each band key,
confirm every candidate with the exact Jaccard of the hashed word sets, report the most
similar memory above the threshold (ties: the earliest inserted), else the most similar
memory above it that the claim differs from in a negation, a number, a name or an
antonym, or with roles swapped (a variant, queued
as pending), else the most similar live pending entry, and insert when unique. Internal
ids are assigned in insertion order as in Redis, so both homes break ties identically.
State is lost with the process by design: this home is for one-shot checks and for
callers that rebuild it from their own store.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from groundwire.guards.dedup.minhash import (
    MAX_RECORD_MARKS,
    NEGATION_HASHES,
    Fingerprint,
    Spellings,
    replaced_in_place,
    reversed_roles,
    spelled_cover,
    spelled_in,
)
from groundwire.guards.dedup.store import (
    DUPLICATE,
    INDEXED,
    LOOK,
    MEMORY,
    NOT_PENDING,
    PENDING_MATCH,
    UNIQUE,
    VARIANT,
    Contrasts,
    Decision,
    Item,
)


@dataclass(slots=True)
class _Record:
    claim_id: str
    tokens: np.ndarray
    token_set: frozenset[int]
    salt: int = 0
    keys: list[int] = field(default_factory=list)  # pending entries keep their band keys
    expires_ms: int = 0  # pending entries only
    _positions: dict[int, int] | None = None  # hash -> place in `tokens` (text order)
    # its negations, numbers and (since session 11) names, at most `MAX_RECORD_MARKS`
    marks: tuple[int, ...] = ()

    def positions(self) -> dict[int, int]:
        if self._positions is None:
            self._positions = {h: i for i, h in enumerate(self.tokens.tolist())}
        return self._positions


# Postings: a memory id (>= 0) or a pending id p as -(p + 1), in one list per band key.
def _pending_posting(pid: int) -> int:
    return -(pid + 1)


@dataclass(slots=True)
class _Tenant:
    next_id: int = 0
    next_pending: int = 0
    ids: dict[str, int] = field(default_factory=dict)
    records: dict[int, _Record] = field(default_factory=dict)
    pending_ids: dict[str, int] = field(default_factory=dict)
    pending: dict[int, _Record] = field(default_factory=dict)
    # band key -> postings; a band key is its uint64 as a Python int (equal ints are equal
    # 8-byte keys, and one tolist() per claim is far cheaper than a bytes object per band)
    buckets: dict[int, list[int]] = field(default_factory=dict)

    def live(self, pid: int, now_ms: int) -> _Record | None:
        rec = self.pending.get(pid)
        return rec if rec is not None and rec.expires_ms > now_ms else None

    def drop_posting(self, key: int, posting: int) -> None:
        kept = self.buckets.get(key)
        if not kept or posting not in kept:
            return
        kept.remove(posting)
        if not kept:
            del self.buckets[key]

    def purge_pending(self, pid: int) -> None:
        rec = self.pending.pop(pid, None)
        if rec is None:
            return
        for key in rec.keys:
            self.drop_posting(key, _pending_posting(pid))
        if self.pending_ids.get(rec.claim_id) == pid:
            del self.pending_ids[rec.claim_id]

    def sweep(self, now_ms: int) -> None:
        for pid in [p for p, rec in self.pending.items() if rec.expires_ms <= now_ms]:
            self.purge_pending(pid)

    def scan(
        self,
        query: frozenset[int],
        keys: list[int],
        threshold: float,
        now_ms: int,
        marks: tuple[int, ...] = (),
        order: tuple[int, ...] = (),
        contrasts: Contrasts = (),
        spellings: Spellings = (),
    ) -> tuple[Decision | None, Decision | None, Decision | None]:
        """(best memory, best live pending entry, best memory it is a variant of) above
        the threshold, as decisions."""
        best: tuple[float, int, int, int] | None = None  # (sim, id, inter, union)
        best_p: tuple[float, int, int, int] | None = None
        best_v: tuple[float, int, int, int] | None = None
        if not query:
            return None, None, None
        seen: set[int] = set()
        # the memory's negations the claim writes another way count as in the claim
        covered = query | spelled_cover(spellings) if spellings else query
        for key in keys:
            for posting in self.buckets.get(key, ()):
                if posting in seen:
                    continue
                seen.add(posting)
                if posting >= 0:
                    rec: _Record | None = self.records[posting]
                    ident = posting
                else:
                    ident = -posting - 1
                    rec = self.live(ident, now_ms)
                if rec is None:
                    continue
                inter = len(query & rec.token_set)
                union = len(query) + len(rec.token_set) - inter
                sim = inter / union
                if sim <= threshold:
                    continue
                variant = (
                    _differs(query, marks, rec, covered, spellings)
                    or _replaced(query, contrasts, rec.token_set)
                    or (
                        bool(order)
                        and (
                            reversed_roles(order, rec.positions())
                            or replaced_in_place(order, rec.positions(), rec.tokens, covered)
                        )
                    )
                )
                if posting < 0 and variant:
                    continue  # a pending entry it differs from is no near-duplicate
                current = best_v if variant else best if posting >= 0 else best_p
                if (
                    current is None
                    or sim > current[0]
                    or (sim == current[0] and ident < current[1])
                ):
                    if variant:
                        best_v = (sim, ident, inter, union)
                    elif posting >= 0:
                        best = (sim, ident, inter, union)
                    else:
                        best_p = (sim, ident, inter, union)
        return (
            self._decision(DUPLICATE, best),
            self._decision(PENDING_MATCH, best_p),
            self._decision(VARIANT, best_v),
        )

    def _decision(self, status: int, best: tuple[float, int, int, int] | None) -> Decision | None:
        if best is None:
            return None
        records = self.pending if status == PENDING_MATCH else self.records
        return Decision(status, records[best[1]].claim_id, best[2], best[3])

    def add_memory(self, rec: _Record, keys: list[int]) -> None:
        mid = self.next_id
        self.next_id += 1
        self.ids[rec.claim_id] = mid
        self.records[mid] = rec
        for key in keys:
            self.buckets.setdefault(key, []).append(mid)


def _differs(
    query: frozenset[int],
    marks: tuple[int, ...],
    rec: _Record,
    covered: frozenset[int],
    spellings: Spellings = (),
) -> bool:
    """The two word sets differ in a mark: one of the claim's negations or numbers is not
    in the record; one of the record's negations is not in the claim; or one of the
    record's own numbers is not, with another word of the claim in its place (a claim that
    only leaves a number out says less, not something else). A negation written another
    way on the other side is the same negation (`covered`: the query and the record
    negations its negations spell; `minhash.spelled_in`)."""
    other = rec.token_set
    if any(m not in other and not spelled_in(m, spellings, other) for m in marks):
        return True
    if any(h in NEGATION_HASHES for h in other - covered):
        return True
    return bool(rec.marks) and not query <= other and any(m not in covered for m in rec.marks)


def _replaced(query: frozenset[int], contrasts: Contrasts, other: frozenset[int]) -> bool:
    """The claim put a name or an antonym in the place of one of the record's words
    (`minhash.contrasts`): a name opening one of the claim's sentences that the record
    lacks while the record has a word the claim lacks; or a form of an antonym of one of
    the claim's words in the record but not in the claim (the claim dropped it),
    "enabled" where the claim says "disabled"."""
    if not contrasts:
        return False
    lacks = not other <= query
    for word, forms in contrasts:
        if forms:
            if any(f in other and f not in query for f in forms):
                return True
        elif lacks and word not in other:
            return True
    return False


def _record_marks(item: Item) -> tuple[int, ...]:
    """What a record keeps as its marks: the claim's marks (negations, numbers, names
    inside a sentence), then the names opening its sentences (`Item.contrasts` without
    forms), at most `MAX_RECORD_MARKS`: the Lua script's `record_head`."""
    names = tuple(w for w, forms in item.contrasts if not forms)
    return (item.marks + names)[:MAX_RECORD_MARKS]


class MemoryStore:
    def __init__(self) -> None:
        self._tenants: dict[str, _Tenant] = {}
        # asyncio callers never interleave (no awaits inside); the lock covers threads.
        self._lock = threading.Lock()

    async def apply(
        self,
        groups: dict[str, list[Item]],
        threshold: float,
        *,
        now_ms: int = 0,
        pending_until_ms: int = 0,
    ) -> dict[str, list[Decision] | Exception]:
        with self._lock:
            return {
                t: self._apply_tenant(t, items, threshold, now_ms, pending_until_ms)
                for t, items in groups.items()
            }

    def _apply_tenant(
        self, tenant_id: str, items: list[Item], threshold: float, now_ms: int, until_ms: int
    ) -> list[Decision]:
        state = self._tenants.setdefault(tenant_id, _Tenant())
        state.sweep(now_ms)
        out: list[Decision] = []
        for item in items:
            if item.claim_id in state.ids:
                out.append(Decision(INDEXED))
                continue
            fp = item.fingerprint
            query = frozenset(fp.tokens.tolist())
            keys = fp.band_keys.tolist()
            marks = (item.marks, item.order, item.contrasts, item.spellings)
            pid = state.pending_ids.get(item.claim_id)
            if pid is not None:
                if state.live(pid, now_ms) is not None:
                    # a replay; one asked in as a memory was queued as a variant: still one?
                    variant = None
                    if item.mode == MEMORY:
                        variant = state.scan(query, keys, threshold, now_ms, *marks)[2]
                    out.append(variant or Decision(INDEXED))
                    continue
                state.purge_pending(pid)
            memory, pending, variant = state.scan(query, keys, threshold, now_ms, *marks)
            if memory is not None:
                out.append(memory)
                continue
            out.append(variant or pending or Decision(UNIQUE))
            if item.mode == LOOK or not query:
                continue
            rec = _Record(item.claim_id, fp.tokens, query, item.salt)
            rec.marks = _record_marks(item)
            if item.mode == MEMORY and variant is None:
                state.add_memory(rec, keys)
            else:
                new = state.next_pending
                state.next_pending += 1
                rec.keys = keys
                rec.expires_ms = until_ms
                state.pending_ids[item.claim_id] = new
                state.pending[new] = rec
                for key in keys:
                    state.buckets.setdefault(key, []).append(_pending_posting(new))
        return out

    async def fetch_tokens(
        self, tenant_id: str, claim_id: str
    ) -> tuple[str, np.ndarray, int] | None:
        with self._lock:
            state = self._tenants.get(tenant_id)
            if state is None or claim_id not in state.ids:
                return None
            mid = state.ids[claim_id]
            rec = state.records[mid]
            return str(mid), rec.tokens, rec.salt

    async def delete(
        self, tenant_id: str, claim_id: str, handle: str, fingerprint: Fingerprint
    ) -> bool:
        with self._lock:
            state = self._tenants.get(tenant_id)
            if state is None or state.ids.get(claim_id) != int(handle):
                return False
            mid = state.ids.pop(claim_id)
            del state.records[mid]
            for k in fingerprint.band_keys.tolist():
                state.drop_posting(k, mid)
            return True

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
        with self._lock:
            state = self._tenants.setdefault(tenant_id, _Tenant())
            if claim_id in state.ids:
                return Decision(INDEXED)
            pid = state.pending_ids.get(claim_id)
            if pid is None:
                return Decision(NOT_PENDING)
            rec = state.live(pid, now_ms)
            if rec is None:
                state.purge_pending(pid)
                return Decision(NOT_PENDING)
            memory = state.scan(
                rec.token_set, rec.keys, threshold, now_ms, marks, order, contrasts, spellings
            )[0]
            state.purge_pending(pid)
            if memory is not None:
                return memory
            keys, rec.keys, rec.expires_ms = rec.keys, [], 0
            state.add_memory(rec, keys)
            return Decision(UNIQUE)

    async def discard(self, tenant_id: str, claim_id: str) -> bool:
        with self._lock:
            state = self._tenants.get(tenant_id)
            pid = state.pending_ids.get(claim_id) if state is not None else None
            if state is None or pid is None:
                return False
            state.purge_pending(pid)
            return True

    def size(self, tenant_id: str) -> int:
        """Indexed memories of one tenant (for tests and `groundwire check` summaries)."""
        state = self._tenants.get(tenant_id)
        return len(state.ids) if state else 0

    def pending_size(self, tenant_id: str) -> int:
        """Pending (queued for review) entries of one tenant, expired ones included until
        the next call purges them."""
        state = self._tenants.get(tenant_id)
        return len(state.pending) if state else 0

    async def aclose(self) -> None:
        return None
