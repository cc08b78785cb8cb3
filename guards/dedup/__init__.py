"""Near-duplicate detection: MinHash-LSH over a store that is in memory or in Redis.

`index` decides (fingerprints, validation, fail-closed batches); a store keeps the bands
and answers one tenant's batch atomically (`store` is the seam, `memory` and
`redis_store` + `lua` the two homes). A new home implements `DedupStore` and gets a
branch in `build_dedup_index`.
"""

from __future__ import annotations

from groundwire.guards.dedup.index import MinHashDedupIndex, build_dedup_index
from groundwire.guards.dedup.store import DedupStoreError

__all__ = ["DedupStoreError", "MinHashDedupIndex", "build_dedup_index"]
