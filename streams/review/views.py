"""What the API shows of a pending claim, and the request/response shapes it documents.

The queue stores the routed record exactly as the pipeline wrote it; a reviewer sees a
projection of it (`pending_view`): the claim, why it is here (reason, reason code, failed
checks), its source turns with the grounding evidence spans, and what it nearly
duplicates. Built from the stored JSON with orjson (the record was validated when it was
queued), so a page of claims costs microseconds, not a model validation per item.
The pydantic models below describe the same shapes for the OpenAPI document.
"""

from __future__ import annotations

import base64
import binascii
import re
from datetime import UTC, datetime
from typing import Any

import orjson
from pydantic import BaseModel, Field, field_validator

from groundwire.streams.review.store import Pending
from groundwire.topics.records import EvidenceObject, EvidenceSpan

QUEUE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_MEMBER = re.compile(r"^\d{13}:[A-Za-z0-9_-]{1,64}$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


class SourceTurnView(BaseModel):
    id: str
    text: str
    source: str


class ValidationView(BaseModel):
    tier: str
    reason: str
    reason_code: str
    checks_failed: list[str]
    checks_passed: list[str]
    dedup: str


class GroundingView(BaseModel):
    verdict: str
    evidence_spans: list[EvidenceSpan]
    adjusted_confidence: float | None = None


class PendingMemory(BaseModel):
    """A claim waiting for its owner's decision (docs/spec.md §Review queue)."""

    queue_id: str
    tenant_id: str
    owner: str = Field(description="the claim's user_id; the owner is (tenant_id, owner)")
    claim_id: str
    content: str
    memory_type: str
    source: str
    evidence: EvidenceObject
    validation: ValidationView
    grounding: GroundingView
    source_turns: list[SourceTurnView]
    duplicate_of: str | None = None
    similarity: float | None = None
    duplicate_content: str | None = Field(
        default=None, description="the nearly duplicated claim's text, when it is yours and pending"
    )
    tags: list[str]
    submitted_at: datetime


class PendingPage(BaseModel):
    items: list[PendingMemory]
    next_cursor: str | None = Field(
        description="pass as `cursor` for older claims; null at the end"
    )


class RejectIn(BaseModel):
    reason: str = Field(min_length=1, max_length=1_000, description="why; shown on `blocked`")

    @field_validator("reason")
    @classmethod
    def _clean(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("reason must not be blank")
        if _CONTROL.search(value):
            raise ValueError("reason must not contain control or bidirectional characters")
        return value


class DecisionOut(BaseModel):
    queue_id: str
    decision: str
    decided_at: datetime


class SessionIn(BaseModel):
    token: str = Field(min_length=1, max_length=8_192, description="a bearer JWT")


class SessionOut(BaseModel):
    tenant_id: str
    user_id: str
    admin: bool
    csrf_token: str = Field(description="send as X-CSRF-Token on every POST/DELETE")


class ErrorOut(BaseModel):
    error: str
    message: str


def encode_cursor(member: str) -> str | None:
    if not member:
        return None
    return base64.urlsafe_b64encode(member.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> str:
    """The zset member a cursor stands for; ValueError when it is not one we issued."""
    if not cursor:
        return ""
    if len(cursor) > 120:
        raise ValueError("cursor too long")
    try:
        member = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise ValueError("malformed cursor") from None
    if not _MEMBER.match(member):
        raise ValueError("malformed cursor")
    return member


def pending_view(item: Pending) -> dict[str, Any]:
    doc = orjson.loads(item.record)
    claim = doc["claim"]
    v = doc["validation"]
    g = doc.get("grounding") or {}
    return {
        "queue_id": item.queue_id,
        "tenant_id": claim["tenant_id"],
        "owner": item.owner,
        "claim_id": claim["claim_id"],
        "content": claim["content"],
        "memory_type": claim.get("memory_type", "fact"),
        "source": claim["source"],
        "evidence": v["evidence"],
        "validation": {
            "tier": v["tier"],
            "reason": v["reason"],
            "reason_code": v["reason_code"],
            "checks_failed": v.get("checks_failed", []),
            "checks_passed": v.get("checks_passed", []),
            "dedup": v.get("dedup", "skipped"),
        },
        "grounding": {
            "verdict": g.get("verdict", "skipped"),
            "evidence_spans": g.get("evidence_spans", []),
            "adjusted_confidence": g.get("adjusted_confidence"),
        },
        "source_turns": [
            {"id": t["id"], "text": t.get("text", ""), "source": t.get("source", "")}
            for t in claim.get("source_turns", [])
        ],
        "duplicate_of": doc.get("duplicate_of") or doc.get("pending_duplicate_of"),
        "similarity": doc.get("similarity"),
        "tags": doc.get("tags", []),
        "submitted_at": datetime.fromtimestamp(item.submitted_ms / 1000, UTC).isoformat(),
    }
