"""Types shared by the dedup index and its two storage homes (memory, Redis).

The index (`dedup.MinHashDedupIndex`) turns requests into `Item`s (hashing and banding a
whole batch at once) and a store decides them; splitting it this way is what lets the
in-memory and the Redis home run the same decision on the same fingerprints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from groundwire.guards.dedup.minhash import Fingerprint

UNIQUE = 0  # not a duplicate (inserted when asked to and the text has words)
INDEXED = 1  # this claim_id is already indexed: a replay, reported unique
DUPLICATE = 2


class DedupStoreError(RuntimeError):
    """The store could not be reached or answered nonsense; callers fail closed."""


@dataclass(frozen=True, slots=True)
class Item:
    claim_id: str
    insert: bool
    fingerprint: Fingerprint


@dataclass(frozen=True, slots=True)
class Decision:
    status: int  # UNIQUE | INDEXED | DUPLICATE
    duplicate_of: str | None = None
    intersection: int = 0
    union: int = 0

    @property
    def similarity(self) -> float | None:
        """The exact (hashed-word) Jaccard, computed the same way in both homes."""
        return self.intersection / self.union if self.status == DUPLICATE else None


class DedupStore(Protocol):
    """Where the index lives. `apply` decides each tenant's items in order, atomically."""

    async def apply(
        self, groups: dict[str, list[Item]], threshold: float
    ) -> dict[str, list[Decision] | Exception]: ...

    async def fetch_tokens(self, tenant_id: str, claim_id: str) -> tuple[str, np.ndarray] | None:
        """(opaque handle, token hashes) of an indexed claim, or None."""
        ...

    async def delete(
        self, tenant_id: str, claim_id: str, handle: str, fingerprint: Fingerprint
    ) -> bool: ...

    async def aclose(self) -> None: ...
