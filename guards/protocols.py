"""The seams between guards: small protocols so each detector can be swapped or tested alone.

Everything here is async because the streaming driver runs on one asyncio loop and the
real implementations (Redis, HTTP verifiers) do I/O; pure in-memory implementations simply
return without awaiting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from groundwire.topics.records import Claim, GroundingReport, SourceTurn


@dataclass(frozen=True, slots=True)
class DedupRequest:
    tenant_id: str
    claim_id: str
    text: str
    # False: look only (the claim is blocked for another reason and must not enter the index)
    insert: bool = True
    # With insert: True = the claim is queued for review, so it enters as a *pending* entry
    # (found as `pending_of` by later claims, never as a duplicate) until `promote`; False =
    # the claim is approved and becomes a memory at once (spec: Near-duplicates).
    pending: bool = False
    # Which memories of the tenant the claim is compared with (docs/dedup.md "Scope"): ""
    # = all of them; otherwise only those with the same scope key (`dedup.scope_key`).
    scope: str = ""


@dataclass(frozen=True, slots=True)
class DedupResult:
    is_duplicate: bool
    duplicate_of: str | None = None  # the memory this claim duplicates
    similarity: float | None = None
    failed: bool = False
    error: str | None = None
    # Not a duplicate of any memory, but a near-duplicate of a claim still pending review:
    # that claim's id and the similarity (informational; the claim follows its own tier).
    pending_of: str | None = None
    pending_similarity: float | None = None
    # Not a duplicate: a near-duplicate of this memory that differs from it in a negation
    # or a number (a variant: the claim goes to review, and entered the index as pending).
    variant_of: str | None = None
    variant_similarity: float | None = None


@runtime_checkable
class DedupIndex(Protocol):
    """Near-duplicate index, per tenant: approved memories, and pending entries for claims
    queued for review (spec: Near-duplicates).

    `check_and_insert` is atomic per batch: two near-duplicates inside one batch cannot
    both pass. It is idempotent per (tenant_id, claim_id): submitting a claim_id that is
    already indexed reports it as unique again (never as a duplicate of itself), so a
    replay after a crash reaches the same decision.
    """

    async def check_and_insert(self, batch: Sequence[DedupRequest]) -> list[DedupResult]: ...

    async def promote(
        self, tenant_id: str, claim_id: str, text: str | None = None, *, scope: str = ""
    ) -> DedupResult:
        """A claim queued for review was approved: it becomes a memory (its pending entry
        moves, or `text` is indexed when the entry has expired or never existed). Returns
        a duplicate result, and indexes nothing, when a memory is now its near-duplicate.
        Raises when the index cannot be reached, so the caller can retry."""
        ...

    async def remove(self, tenant_id: str, claim_id: str) -> bool:
        """Take a memory, or a pending entry, out of the index; False when absent."""
        ...

    async def aclose(self) -> None: ...


@dataclass(frozen=True, slots=True)
class GroundingRequest:
    claim: Claim
    # Only turns that passed the provenance guard; the verifier never sees the rest.
    turns: Sequence[SourceTurn]


@runtime_checkable
class GroundingVerifier(Protocol):
    """Does the source say this? Returns a GroundingReport (verdict, spans, penalty)."""

    name: str

    async def verify_batch(self, batch: Sequence[GroundingRequest]) -> list[GroundingReport]: ...

    async def aclose(self) -> None:
        """Release connections (an HTTP client); a verifier without any does nothing."""
        ...
