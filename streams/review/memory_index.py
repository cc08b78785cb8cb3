"""What a decision does to the dedup index (docs/spec.md §Near-duplicates).

An approved claim becomes a memory of the index (later near-duplicates of it are
blocked); a rejected one leaves it. Both are idempotent, so the relay may repeat them
when a Kafka transaction has to be retried. Both raise when the index cannot be reached,
and the relay then retries the batch: a decision is never written to Kafka without its
effect on the index.
"""

from __future__ import annotations

from typing import Any

from groundwire.guards.config import DedupConfig
from groundwire.guards.dedup.store import DedupStoreError
from groundwire.guards.protocols import DedupIndex, DedupRequest
from groundwire.topics.records import Claim


def _scope(cfg: DedupConfig, claim: Claim) -> str:
    """The claim's dedup scope key, when the index has scopes (else every memory of the
    tenant: "")."""
    try:
        from groundwire.guards.dedup import index as dedup_index

        scope_key = getattr(dedup_index, "scope_key", None)
        scope = getattr(cfg, "scope", "tenant")
        if scope_key is None:
            return ""
        return str(scope_key(scope, claim.user_id, claim.memory_type))
    except (ImportError, ValueError):
        return ""


async def admit(index: DedupIndex, cfg: DedupConfig, claim: Claim) -> str | None:
    """Make the approved claim a memory. Returns the id of a memory approved meanwhile
    that it nearly duplicates (then nothing was indexed), else None."""
    promote: Any = getattr(index, "promote", None)
    if promote is not None:
        result = await promote(
            claim.tenant_id, claim.claim_id, claim.content, scope=_scope(cfg, claim)
        )
    else:
        request = DedupRequest(claim.tenant_id, claim.claim_id, claim.content, insert=True)
        [result] = await index.check_and_insert([request])
    if result.failed:
        raise DedupStoreError(result.error or "dedup check failed")
    return result.duplicate_of if result.is_duplicate else None


async def discard(index: DedupIndex, claim: Claim) -> None:
    """Take the rejected claim out of the index (absent is fine)."""
    await index.remove(claim.tenant_id, claim.claim_id)
