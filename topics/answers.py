"""Records of read-time faithfulness (docs/spec.md §Read-time faithfulness): the answer an
agent gave with the context it was given (`Answer`, on `answers` or in the body of
`POST /v1/answers:score`) and its score (`ScoredAnswer`, on `answers.scored`, on `audit`
and in the HTTP response).

Kept beside `records.py` rather than inside it because the two halves of the pipeline
evolve separately: the claim records describe what goes into memory, these describe
what an agent says with it. Both share the id rules and the closed vocabularies of
`vocab.py`, and their JSON Schemas are generated the same way (`groundwire schemas write`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from groundwire.topics.codec import DecodeFailure, json_depth
from groundwire.topics.records import ID_MAX, ID_PATTERN, EvidenceSpan, GroundingReport
from groundwire.topics.vocab import (
    AnswerAction,
    AnswerCitationStatus,
    AnswerClaimVerdict,
    AnswerPolicy,
    AnswerWarningType,
    ClaimKind,
    DlqReason,
    RiskLevel,
    UncitedClass,
)

__all__ = [
    "Answer",
    "AnswerCitation",
    "AnswerClaim",
    "AnswerLimits",
    "AnswerValidation",
    "AnswerWarning",
    "CitationCheck",
    "ContextSource",
    "RegenerationAttempt",
    "ScoredAnswer",
    "UncitedFinding",
    "answer_over_limits",
    "decode_answer",
]

QUOTE_MAX = 4_096
SCOPE_MAX = 64


class ContextSource(BaseModel):
    """One piece of context the answer was given (a memory, a document chunk).

    `source` and `created_at` are the provenance contract of docs/spec.md §Provenance and
    re-entry: only an allowed source tag grounds, a model's own output never does, and a
    source created after the answer's turn started is not what it was built from."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str = Field(min_length=1, max_length=ID_MAX, pattern=ID_PATTERN)
    text: str
    source: str | None = Field(default=None, max_length=64)
    created_at: datetime | None = None
    # Which store or scope it came from ("personal", "team"); required meaning only in
    # `Answer.other_scopes`, where it is what the flagger names.
    scope: str | None = Field(default=None, max_length=SCOPE_MAX)


class AnswerCitation(BaseModel):
    """A citation stated beside the text (as a RAG assistant returns its sources), in
    addition to the markers inside the text ("[source:2]", "[mem_X]", a hash)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    # Bounded but not pattern-checked: an invented id is what the check must report.
    source_id: str = Field(min_length=1, max_length=ID_MAX)
    # The stretch of the answer text it supports, [start, end); absent: the whole answer.
    start: int | None = Field(default=None, ge=0)
    end: int | None = Field(default=None, ge=0)
    quote: str | None = Field(default=None, max_length=QUOTE_MAX)  # must occur in the source
    line_start: int | None = None  # 1-based lines of the source; must exist
    line_end: int | None = None


class Answer(BaseModel):
    """An agent's answer and the context it was given (key = tenant_id)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    answer_id: str = Field(min_length=1, max_length=ID_MAX, pattern=ID_PATTERN)
    tenant_id: str = Field(min_length=1, max_length=ID_MAX, pattern=ID_PATTERN)
    user_id: str = Field(default="", max_length=ID_MAX, pattern=f"^$|{ID_PATTERN}")
    text: str = Field(min_length=1)
    context: list[ContextSource] = Field(default_factory=list)
    citations: list[AnswerCitation] = Field(default_factory=list)
    # Sources of other scopes the answer was NOT given (the team's store beside the
    # user's): they never ground a claim; the uncited-claim flagger names them.
    other_scopes: list[ContextSource] = Field(default_factory=list)
    query: str | None = Field(default=None, max_length=16_384)  # the question, for regeneration
    # When the answer's turn started: context created later is not what it was built from.
    created_at: datetime | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class CitationCheck(BaseModel):
    """One citation of a claim, checked (docs/spec.md §Read-time faithfulness)."""

    ref: str  # as written in the text ("[source:2]") or "citations[i]" for a stated one
    source_id: str | None = None  # the context source it resolved to, if any
    status: AnswerCitationStatus
    detail: str = ""


class UncitedFinding(BaseModel):
    """Where an uncited factual claim could have come from."""

    finding: UncitedClass
    source_id: str | None = None  # the most likely source (likely_sourced, other_scope)
    scope: str | None = None  # other_scope: which scope holds it
    span: EvidenceSpan | None = None  # the stretch of that source that says it


class AnswerClaim(BaseModel):
    """One piece of the answer: an atomic factual claim, or an excluded sentence."""

    index: int
    text: str  # the claim as checked (citation markers removed)
    start: int  # the sentence it comes from: [start, end) of the answer text
    end: int
    kind: ClaimKind
    why: str = ""  # why it is of this kind (for an exclusion, the reason)
    critical: bool = False  # names a number, a name, a file or a quote
    verdict: AnswerClaimVerdict | None = None  # None: not a factual claim, not checked
    reason: str = ""  # why it is not supported: the annotation `warn` adds
    grounding: GroundingReport | None = None
    citations: list[CitationCheck] = Field(default_factory=list)
    uncited: UncitedFinding | None = None
    phantoms: list[str] = Field(default_factory=list)  # fields, paths no source contains


class AnswerWarning(BaseModel):
    type: AnswerWarningType
    message: str
    claim_index: int | None = None
    source_id: str | None = None


class AnswerValidation(BaseModel):
    """Validation metadata (ADR-0031's sourcesVerified / sourcesTotal, fieldsVerified /
    fieldsTotal, confidence), in the wire's snake case."""

    sources_verified: int = 0
    sources_total: int = 0
    fields_verified: int = 0
    fields_total: int = 0
    confidence: float = 1.0


class RegenerationAttempt(BaseModel):
    attempt: int  # 1-based
    text: str = ""  # the regenerated answer ("" when the attempt failed)
    faithfulness: float | None = None
    risk: RiskLevel | None = None
    accepted: bool = False
    error: str = ""  # why the attempt produced nothing (timeout, refused URL, ...)


class ScoredAnswer(BaseModel):
    """The score of one answer (on `answers.scored` and `audit`, and the HTTP response).

    `faithfulness`, `risk`, `claims` and `warnings` describe the answer as the agent gave
    it; `final_text` is what to show (the answer, annotated, regenerated or the refusal);
    `attempts` scores each regeneration."""

    answer: Answer
    faithfulness: float | None = None  # supported / factual claims; None: no factual claim
    risk: RiskLevel
    factual_claims: int = 0
    supported_claims: int = 0
    claims: list[AnswerClaim] = Field(default_factory=list)
    warnings: list[AnswerWarning] = Field(default_factory=list)
    validation: AnswerValidation = Field(default_factory=AnswerValidation)
    policy: AnswerPolicy
    action: AnswerAction = AnswerAction.NONE
    final_text: str
    attempts: list[RegenerationAttempt] = Field(default_factory=list)
    degraded: bool = False  # the configured verifier failed and the fallback applied
    degradation: str = ""  # which fallback, and why
    cached: bool = False  # the score came from the validated cache
    verifier: str = ""
    scored_at: datetime
    worker: str = ""
    timings_ms: dict[str, float] = Field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AnswerLimits:
    """Bounds on one answer record, checked before any validation or scoring."""

    max_record_bytes: int = 524_288
    max_json_depth: int = 16
    max_text_chars: int = 20_000
    max_sources: int = 256
    max_source_bytes: int = 65_536
    max_citations: int = 256
    max_metadata_bytes: int = 16_384


def decode_answer(value: bytes | None, limits: AnswerLimits) -> Answer | DecodeFailure:
    """Parse and validate one answer (the `answers` topic, the HTTP body); never raises."""
    if not value:
        return DecodeFailure(DlqReason.EMPTY, "record has no value")
    if len(value) > limits.max_record_bytes:
        return DecodeFailure(
            DlqReason.TOO_LARGE, f"record is {len(value)} bytes, limit {limits.max_record_bytes}"
        )
    try:
        doc = orjson.loads(value)
    except orjson.JSONDecodeError as exc:
        reason = DlqReason.INVALID_UTF8 if "utf-8" in str(exc).lower() else DlqReason.NOT_JSON
        return DecodeFailure(reason, str(exc)[:300])
    if not isinstance(doc, dict):
        return DecodeFailure(DlqReason.NOT_OBJECT, f"top-level JSON is {type(doc).__name__}")
    refused = answer_over_limits(doc, limits)
    if refused is not None:
        return refused
    try:
        return Answer.model_validate(doc)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}"
            for err in exc.errors()[:10]
        )
        return DecodeFailure(DlqReason.INVALID_ANSWER, problems[:1000])


def answer_over_limits(doc: dict[str, Any], limits: AnswerLimits) -> DecodeFailure | None:
    """Why a parsed answer document is too big to score, or None."""
    if json_depth(doc, limits.max_json_depth) > limits.max_json_depth:
        return DecodeFailure(
            DlqReason.TOO_DEEP, f"JSON nests deeper than {limits.max_json_depth} levels"
        )
    text = doc.get("text")
    if isinstance(text, str) and len(text) > limits.max_text_chars:
        return DecodeFailure(
            DlqReason.TOO_LARGE, f"text is {len(text)} characters, limit {limits.max_text_chars}"
        )
    for name in ("context", "other_scopes"):
        sources = doc.get(name)
        if not isinstance(sources, list):
            continue
        if len(sources) > limits.max_sources:
            return DecodeFailure(
                DlqReason.TOO_MANY_TURNS,
                f"{len(sources)} {name} sources, limit {limits.max_sources}",
            )
        for i, source in enumerate(sources):
            body = source.get("text") if isinstance(source, dict) else None
            if isinstance(body, str) and len(body.encode("utf-8", "surrogatepass")) > (
                limits.max_source_bytes
            ):
                return DecodeFailure(
                    DlqReason.TOO_LARGE, f"{name}.{i}.text is over {limits.max_source_bytes} bytes"
                )
    citations = doc.get("citations")
    if isinstance(citations, list) and len(citations) > limits.max_citations:
        return DecodeFailure(
            DlqReason.TOO_LARGE, f"{len(citations)} citations, limit {limits.max_citations}"
        )
    metadata = doc.get("metadata")
    if metadata is not None and len(orjson.dumps(metadata)) > limits.max_metadata_bytes:
        return DecodeFailure(
            DlqReason.TOO_LARGE, f"metadata is over {limits.max_metadata_bytes} bytes"
        )
    return None
