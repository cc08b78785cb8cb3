"""Turning raw Kafka records into claims, and refusing what cannot be read.

Every refusal is a `DecodeFailure` (returned, never raised) with a `DlqReason` so the stage
can write it to the dlq instead of crashing: a worker that dies on one poisoned record
stalls its whole partition, which is worse than the record itself.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from pydantic import BaseModel, ValidationError

from groundwire.topics import record_json
from groundwire.topics.records import Claim, DlqRecord
from groundwire.topics.signing import signing_payload
from groundwire.topics.vocab import DlqReason

RAW_PREVIEW_CHARS = 4096
# Room for everything in a dlq record besides the base64 copy (preview, detail, names).
_DLQ_OVERHEAD_BYTES = 32_768


@dataclass(frozen=True, slots=True)
class DecodeLimits:
    """Bounds on what one record may hold, checked before any deep work (validation,
    screening, serialising the outputs), so a hostile record costs microseconds and goes
    to the dlq with a reason instead of stalling its partition."""

    max_record_bytes: int = 524_288
    max_content_bytes: int = 16_384
    max_json_depth: int = 16
    max_source_turns: int = 256
    max_turn_bytes: int = 65_536
    max_metadata_bytes: int = 16_384


@dataclass(frozen=True, slots=True)
class DecodeFailure:
    """Why a record could not be read: a machine-readable reason and a human detail."""

    reason: DlqReason
    detail: str


@dataclass(frozen=True, slots=True)
class DecodedClaim:
    """A claim and, when it is signed, the bytes its signature must cover: the canonical
    JSON of the object as received, without `signature` (topics/signing.py)."""

    claim: Claim
    signed_payload: bytes | None = None


def decode_claim(value: bytes | None, limits: DecodeLimits) -> Claim | DecodeFailure:
    """Parse and validate one claim; never raises on bad input."""
    decoded = decode_signed_claim(value, limits)
    return decoded.claim if isinstance(decoded, DecodedClaim) else decoded


def decode_signed_claim(value: bytes | None, limits: DecodeLimits) -> DecodedClaim | DecodeFailure:
    """`decode_claim`, keeping what a producer signature is checked against: the screen
    stage and `groundwire check` authenticate producers from it. Never raises."""
    if not value:
        return DecodeFailure(DlqReason.EMPTY, "record has no value")
    if len(value) > limits.max_record_bytes:
        return DecodeFailure(
            DlqReason.TOO_LARGE, f"record is {len(value)} bytes, limit {limits.max_record_bytes}"
        )
    if not value.isascii():  # ASCII is UTF-8: no need to decode (and copy) it to know
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
    refused = _over_limits(doc, limits, depth_known_ok=_shallow(value, limits.max_json_depth))
    if refused is not None:
        return refused
    try:
        # The model's validator itself: `Claim.model_validate(doc)` is this call behind a
        # Python wrapper (~4,600 of its ~29,000 instructions a claim), with the same
        # arguments, result and errors.
        claim: Claim = Claim.__pydantic_validator__.validate_python(doc)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}"
            for err in exc.errors()[:10]
        )
        return DecodeFailure(DlqReason.INVALID_CLAIM, problems[:1000])
    if claim.signature is None:
        return DecodedClaim(claim)
    try:
        return DecodedClaim(claim, signing_payload(doc))
    except (TypeError, ValueError, UnicodeEncodeError):  # lone surrogates: it cannot verify
        return DecodedClaim(claim, b"")


def _shallow(value: bytes, levels: int) -> bool:
    """True when the JSON in `value` cannot nest deeper than `levels`, from its bytes alone.

    Every array or object of the parsed document opens with its own `[` or `{` byte
    (bytes of a multi-byte UTF-8 character are all >= 0x80, so none is a bracket), and a
    nesting depth counts containers, so the depth is at most the number of such bytes;
    brackets inside strings only raise the count. Two C passes over the bytes instead of a
    Python walk of the parsed document: a claim holds about four containers against a
    limit of 16. False says nothing (the walk then decides)."""
    return value.count(b"{") + value.count(b"[") <= levels


def _over_limits(
    doc: dict[str, Any], limits: DecodeLimits, *, depth_known_ok: bool = False
) -> DecodeFailure | None:
    if not depth_known_ok and _deeper_than(doc, limits.max_json_depth):
        return DecodeFailure(
            DlqReason.TOO_DEEP, f"JSON nests deeper than {limits.max_json_depth} levels"
        )
    content = doc.get("content")
    if isinstance(content, str):
        size = _utf8_size(content)
        if size > limits.max_content_bytes:
            return DecodeFailure(
                DlqReason.TOO_LARGE, f"content is {size} bytes, limit {limits.max_content_bytes}"
            )
    turns = doc.get("source_turns")
    if isinstance(turns, list):
        if len(turns) > limits.max_source_turns:
            return DecodeFailure(
                DlqReason.TOO_MANY_TURNS,
                f"{len(turns)} source turns, limit {limits.max_source_turns}",
            )
        for i, turn in enumerate(turns):
            text = turn.get("text") if isinstance(turn, dict) else None
            if isinstance(text, str) and _utf8_size(text) > limits.max_turn_bytes:
                return DecodeFailure(
                    DlqReason.TOO_LARGE,
                    f"source_turns.{i}.text is over {limits.max_turn_bytes} bytes",
                )
    metadata = doc.get("metadata")
    if metadata is not None:
        size = len(orjson.dumps(metadata))
        if size > limits.max_metadata_bytes:
            return DecodeFailure(
                DlqReason.TOO_LARGE,
                f"metadata is {size} bytes, limit {limits.max_metadata_bytes}",
            )
    return None


def _utf8_size(text: str) -> int:
    """Bytes of `text` in UTF-8; an ASCII string (a flag CPython keeps, no scan) is its
    length, without the copy `encode` makes. Anything else is encoded as before (and a
    lone surrogate raises UnicodeEncodeError, as before)."""
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def _deeper_than(node: Any, levels: int) -> bool:
    """`json_depth(node, levels) > levels` for JSON parsed by orjson (only exact dicts and
    lists nest; `node` is one of them), recursively and without building a stack of
    (node, depth) tuples: on a claim it is ~5x cheaper. The recursion is at most
    `levels` + 1 frames deep."""
    if levels <= 0:
        return True
    for child in node.values() if type(node) is dict else node:
        kind = type(child)
        if (kind is dict or kind is list) and _deeper_than(child, levels - 1):
            return True
    return False


def json_depth(doc: object, stop_after: int) -> int:
    """Nesting depth of parsed JSON (a scalar is 0), iteratively, giving up once past
    `stop_after`: the answer is then only known to exceed it, which is all that matters."""
    deepest = 0
    stack: list[tuple[object, int]] = [(doc, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Iterable[object] = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > stop_after:
            return deepest
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return deepest


def dlq_record(
    error: DecodeFailure,
    *,
    value: bytes | None,
    key: bytes | None,
    topic: str,
    partition: int,
    offset: int,
    max_bytes: int = 1_000_000,
) -> DlqRecord:
    """Keep the original bytes recoverable: valid UTF-8 as text, anything else base64 too.

    The record stays under `max_bytes` (the size a broker accepts): the exact bytes of a
    record too large to carry are left out, and the dlq record points at them instead
    (`topic`, `partition`, `offset` of the original, kept by the input topic's retention).
    """
    raw = value or b""
    text = raw.decode("utf-8", errors="replace")[:RAW_PREVIEW_CHARS]
    exact = None
    detail = error.detail
    wants_exact = error.reason is DlqReason.INVALID_UTF8 or error.reason is DlqReason.TOO_LARGE
    if wants_exact:
        encoded_size = 4 * ((len(raw) + 2) // 3)
        if encoded_size + _DLQ_OVERHEAD_BYTES <= max_bytes:
            exact = base64.b64encode(raw).decode("ascii")
        else:
            detail += f" (original bytes not copied: read {topic}[{partition}]@{offset})"
    return DlqRecord(
        reason=error.reason,
        detail=detail,
        topic=topic,
        partition=partition,
        offset=offset,
        key=key.decode("utf-8", errors="replace")[:1024] if key is not None else None,
        raw=text,
        raw_b64=exact,
        received_at=datetime.now(UTC),
    )


def dumps(model: object) -> bytes:
    """Serialise a pydantic model (with its own JSON serializer) or plain data (orjson).

    A wire record of topics/records.py is written by orjson from its fields when that is
    sure to give pydantic's bytes (topics/record_json.py: about half the instructions),
    else by pydantic. The serializer's bytes are returned as they are: `model_dump_json()`
    is the same call decoded to str, which `.encode()` then copied back."""
    if isinstance(model, BaseModel):
        try:
            return record_json.encode(model)
        except record_json.Unsupported:
            return model.__pydantic_serializer__.to_json(model)
    return orjson.dumps(model)
