"""Turning raw Kafka records into claims, and refusing what cannot be read.

Every refusal is a `DecodeFailure` (returned, never raised) with a `DlqReason` so the stage
can write it to the dlq instead of crashing: a worker that dies on one poisoned record
stalls its whole partition, which is worse than the record itself.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from datetime import UTC, datetime

import orjson
from pydantic import ValidationError

from groundwire.topics.records import Claim, DlqRecord
from groundwire.topics.vocab import DlqReason

RAW_PREVIEW_CHARS = 4096


@dataclass(frozen=True, slots=True)
class DecodeFailure:
    """Why a record could not be read: a machine-readable reason and a human detail."""

    reason: DlqReason
    detail: str


def decode_claim(
    value: bytes | None, *, max_record_bytes: int, max_content_bytes: int
) -> Claim | DecodeFailure:
    """Parse and validate one claim; never raises on bad input."""
    if not value:
        return DecodeFailure(DlqReason.EMPTY, "record has no value")
    if len(value) > max_record_bytes:
        return DecodeFailure(
            DlqReason.TOO_LARGE, f"record is {len(value)} bytes, limit {max_record_bytes}"
        )
    try:
        value.decode("utf-8")
    except UnicodeDecodeError as exc:
        return DecodeFailure(DlqReason.INVALID_UTF8, f"byte {exc.start}: {exc.reason}")
    try:
        doc = orjson.loads(value)
    except orjson.JSONDecodeError as exc:
        return DecodeFailure(DlqReason.NOT_JSON, str(exc)[:300])
    if not isinstance(doc, dict):
        return DecodeFailure(
            DlqReason.NOT_OBJECT, f"top-level JSON is {type(doc).__name__}, not object"
        )
    content = doc.get("content")
    if isinstance(content, str) and len(content.encode("utf-8")) > max_content_bytes:
        return DecodeFailure(
            DlqReason.TOO_LARGE,
            f"content is {len(content.encode('utf-8'))} bytes, limit {max_content_bytes}",
        )
    try:
        return Claim.model_validate(doc)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}"
            for err in exc.errors()[:10]
        )
        return DecodeFailure(DlqReason.INVALID_CLAIM, problems[:1000])


def dlq_record(
    error: DecodeFailure,
    *,
    value: bytes | None,
    key: bytes | None,
    topic: str,
    partition: int,
    offset: int,
) -> DlqRecord:
    """Keep the original bytes recoverable: valid UTF-8 as text, anything else base64 too."""
    raw = value or b""
    text = raw.decode("utf-8", errors="replace")[:RAW_PREVIEW_CHARS]
    exact = None
    if error.reason is DlqReason.INVALID_UTF8 or (
        error.reason is DlqReason.TOO_LARGE and len(raw) <= 1_048_576
    ):
        exact = base64.b64encode(raw).decode("ascii")
    return DlqRecord(
        reason=error.reason,
        detail=error.detail,
        topic=topic,
        partition=partition,
        offset=offset,
        key=key.decode("utf-8", errors="replace") if key is not None else None,
        raw=text,
        raw_b64=exact,
        received_at=datetime.now(UTC),
    )


def dumps(model: object) -> bytes:
    """Serialise a pydantic model (or plain data) with orjson."""
    dump_json = getattr(model, "model_dump_json", None)
    if dump_json is not None:
        return dump_json().encode("utf-8")
    return orjson.dumps(model)
