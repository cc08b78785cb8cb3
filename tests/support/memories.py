"""Helpers for the store-time consistency tests: approved routed records and memories."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from groundwire.guards.consistency.config import ConsistencyConfig
from groundwire.guards.consistency.memory import new_memory
from groundwire.topics.memory import MemoryRecord
from groundwire.topics.records import Claim, EvidenceObject, RoutedResult, ValidationResult
from groundwire.topics.vocab import DedupOutcome, ReasonCode, Source, Tier

NOW = datetime(2026, 4, 10, 12, 0, tzinfo=UTC)


def day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def approved(
    claim_id: str,
    content: str,
    *,
    tenant: str = "acme",
    user: str = "georgian",
    subject: str | None = None,
    predicate: str | None = None,
    obj: str | None = None,
    created: str | None = None,
    confidence: float = 0.9,
    memory_type: str = "fact",
    metadata: dict[str, Any] | None = None,
) -> RoutedResult:
    """An auto-approved routed record of one claim, as the route stage writes it."""
    at = day(created) if created else NOW
    claim = Claim(
        claim_id=claim_id,
        tenant_id=tenant,
        user_id=user,
        content=content,
        memory_type=memory_type,
        source=Source.USER,
        subject=subject,
        predicate=predicate,
        object=obj,
        confidence=confidence,
        created_at=at,
        metadata=metadata or {},
    )
    validation = ValidationResult(
        tier=Tier.AUTO_APPROVE,
        approved=True,
        reason="Trusted source: user",
        reason_code=ReasonCode.TRUSTED_SOURCE,
        dedup=DedupOutcome.UNIQUE,
        evidence=EvidenceObject(claim=content, capture_time=at, confidence="high"),
    )
    return RoutedResult(claim=claim, validation=validation, routed_at=at)


def memory(claim_id: str, content: str, **kwargs: Any) -> MemoryRecord:
    cfg = kwargs.pop("cfg", None) or ConsistencyConfig()
    routed = approved(claim_id, content, **kwargs)
    return new_memory(routed, f"claim:test:{claim_id}", NOW, cfg)
