"""Types shared by the dedup index and its two storage homes (memory, Redis).

The index (`dedup.MinHashDedupIndex`) turns requests into `Item`s (hashing and banding a
whole batch at once) and a store decides them; splitting it this way is what lets the
in-memory and the Redis home run the same decision on the same fingerprints.

A store keeps two namespaces per tenant over one band index: **memories** (approved
claims; a near-duplicate of one is a duplicate, unless the two differ in a negation or a
number: then it is a `VARIANT`) and **pending** entries (claims queued for review; a
near-duplicate of one is reported, `PENDING_MATCH`, and otherwise unique).
Pending entries expire at the time the index gives them (`DedupConfig.pending_retention_s`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from groundwire.guards.dedup.minhash import Fingerprint, Spellings

UNIQUE = 0  # not a duplicate (inserted when asked to and the text has words)
INDEXED = 1  # this claim_id is already indexed (a memory or pending): a replay, unique
DUPLICATE = 2  # a near-duplicate of a memory
PENDING_MATCH = 3  # unique among memories, but a near-duplicate of a pending entry
NOT_PENDING = 4  # promote: the claim_id has no (live) pending entry
# unique, but a near-duplicate of a memory that differs from it in a negation or a number
# (`minhash.marks`): inserted as a pending entry whatever its mode asked, since the claim
# goes to review (docs/dedup.md §Variants)
VARIANT = 5

_MATCHES = frozenset({DUPLICATE, PENDING_MATCH, VARIANT})

# What a store does with an item after deciding it (it never inserts a duplicate).
LOOK = 0  # look only: the claim is blocked for another reason
MEMORY = 1  # insert as a memory: the claim is approved
PENDING = 2  # insert as a pending entry: the claim is queued for review


class DedupStoreError(RuntimeError):
    """The store could not be reached or answered nonsense; callers fail closed."""


# (word hash, form hashes) pairs: `Item.contrasts`
Contrasts = tuple[tuple[int, tuple[int, ...]], ...]


@dataclass(frozen=True, slots=True)
class Item:
    claim_id: str
    mode: int  # LOOK | MEMORY | PENDING
    fingerprint: Fingerprint  # band keys already salted with `salt`
    salt: int = 0  # the dedup scope's salt (0: scope `tenant`, band keys unsalted)
    marks: tuple[int, ...] = ()  # hashes of its negations and numbers (`minhash.marks`)
    # hashes of its content words in order (`minhash.order_words`): the role-swap check
    order: tuple[int, ...] = ()
    # (word hash, its antonyms' form hashes) per word that may have replaced one of a
    # memory's (`minhash.contrasts`); no forms: a name. Its names join a record's marks.
    contrasts: Contrasts = ()
    # its negations' other spellings (`minhash.negation_spellings`): "can't" against a
    # memory's "cannot" or "can not" is the same negation, no change
    spellings: Spellings = ()


@dataclass(frozen=True, slots=True)
class Decision:
    status: int  # UNIQUE | INDEXED | DUPLICATE | PENDING_MATCH | NOT_PENDING | VARIANT
    # the memory (DUPLICATE, VARIANT) or pending claim (PENDING_MATCH)
    duplicate_of: str | None = None
    intersection: int = 0
    union: int = 0

    @property
    def similarity(self) -> float | None:
        """The exact (hashed-word) Jaccard, computed the same way in both homes."""
        if self.status in _MATCHES:
            return self.intersection / self.union
        return None


class DedupStore(Protocol):
    """Where the index lives. `apply` decides each tenant's items in order, atomically."""

    async def apply(
        self,
        groups: dict[str, list[Item]],
        threshold: float,
        *,
        now_ms: int,
        pending_until_ms: int,
    ) -> dict[str, list[Decision] | Exception]:
        """Purge expired pending entries, then decide and insert each tenant's items."""
        ...

    async def fetch_tokens(
        self, tenant_id: str, claim_id: str
    ) -> tuple[str, np.ndarray, int] | None:
        """(opaque handle, token hashes, salt) of a memory, or None."""
        ...

    async def delete(
        self, tenant_id: str, claim_id: str, handle: str, fingerprint: Fingerprint
    ) -> bool:
        """Remove a memory (band keys from `fetch_tokens`' tokens and salt)."""
        ...

    async def promote(
        self,
        tenant_id: str,
        claim_id: str,
        threshold: float,
        *,
        now_ms: int,
        marks: tuple[int, ...] = (),
        order: tuple[int, ...] = (),
        contrasts: Contrasts = (),
        spellings: Spellings = (),
    ) -> Decision:
        """Turn a live pending entry into a memory: UNIQUE (promoted), INDEXED (already a
        memory), DUPLICATE (a memory is its near-duplicate; the entry is dropped, nothing
        inserted) or NOT_PENDING. A person approved it, so a variant of a memory is
        promoted (`marks`: the claim's, when its text is known; else only the memory's
        negations tell a variant)."""
        ...

    async def discard(self, tenant_id: str, claim_id: str) -> bool:
        """Drop a pending entry; False when there was none."""
        ...

    async def aclose(self) -> None: ...
