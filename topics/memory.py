"""Record types of the memory view (docs/spec.md §Store-time consistency).

Every approved claim becomes a *memory*; each change to a memory (created, superseded,
merged, flagged, confirmed, unflagged) is a new `MemoryRecord` version on the compacted
`memories` topic, keyed by memory id, so a store that applies `memories` in order holds
the same memories as groundwire's own view. A retraction is a tombstone (a record with
no value) under the memory's key. Every change is also a `MemoryAuditEvent` on `audit`,
which names ids and never repeats content, so retracted text does not live on there.

The consistency scan and `groundwire memories retract` do not write memories themselves:
they publish `MemoryCommand`s on `memories.commands` (keyed by tenant), which the memory
stage applies in order with the approved claims of the same tenant. One writer per
tenant keeps the versions on `memories` in order.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from groundwire.topics.records import ID_MAX, ID_PATTERN, TEXT_FIELD_MAX, EvidenceSpan
from groundwire.topics.vocab import (
    ConsistencyAction,
    ConsistencySignal,
    ConsistencyVerdict,
    MemoryChange,
    Source,
)

# Bounds: a merged memory's evidence and links cannot grow without limit.
MAX_SPANS = 64
MAX_LINKS = 64
MAX_MEMBERS = 256
MAX_SPAN_CHARS = 32_768  # evidence span text per memory (a merge unions spans)

MEMORY_ID_PATTERN = r"^m-[0-9a-f]{24}$"


def memory_id(tenant_id: str, claim_id: str) -> str:
    """The memory an approved claim becomes: stable, so a replayed claim names the same
    memory, and unique across tenants (claim ids are only unique within one)."""
    digest = hashlib.blake2b(
        f"{tenant_id}\0{claim_id}".encode("utf-8", "surrogatepass"), digest_size=12
    ).hexdigest()
    return f"m-{digest}"


class MemoryEvidence(BaseModel):
    """What a memory rests on: the claims it came from, the first verified citation or
    evidence turn, and the evidence spans of its grounding (a merge unions them)."""

    source_id: str | None = None
    claim_ids: list[str] = Field(default_factory=list, max_length=MAX_MEMBERS)
    spans: list[EvidenceSpan] = Field(default_factory=list, max_length=MAX_SPANS)


class MemoryRecord(BaseModel):
    """One version of one memory, on `memories` (key = memory_id)."""

    memory_id: str = Field(pattern=MEMORY_ID_PATTERN)
    tenant_id: str = Field(min_length=1, max_length=ID_MAX, pattern=ID_PATTERN)
    user_id: str = Field(default="", max_length=ID_MAX)
    claim_id: str = Field(min_length=1, max_length=ID_MAX)  # the claim it was approved from
    version: int = Field(ge=1)  # 1 when created, +1 per change
    change: MemoryChange  # what this version did
    content: str  # the claim's content, or its grounding rewrite when there is one
    memory_type: str = "fact"
    source: Source
    # (subject, predicate, object) from the claim, else from the offline extractor
    # (guards/consistency/extract.py); "" when neither has one.
    subject: str = Field(default="", max_length=TEXT_FIELD_MAX)
    predicate: str = Field(default="", max_length=TEXT_FIELD_MAX)
    object: str = Field(default="", max_length=TEXT_FIELD_MAX)
    spo_from: Literal["claim", "extracted", "none"] = "none"
    valid_from: datetime
    valid_to: datetime | None = None  # set when superseded
    superseded_by: str | None = None  # the memory that replaced it (then it is history)
    contradicts_with: list[str] = Field(default_factory=list, max_length=MAX_LINKS)
    flagged: bool = False  # contradicts_with is unresolved: a person decides
    confidence: float = Field(ge=0.0, le=1.0)
    evidence: MemoryEvidence = Field(default_factory=MemoryEvidence)
    access_count: int = Field(default=0, ge=0)
    merged_from: list[str] = Field(default_factory=list, max_length=MAX_MEMBERS)
    tags: list[str] = Field(default_factory=list)
    created_at: datetime
    updated_at: datetime
    # What made this version: "claim:<topic:partition:offset>", "scan:<run id>",
    # "review:<request id>", "retract:<command id>"
    cause: str = ""

    @property
    def active(self) -> bool:
        """Current (not history): what retrieval returns by default."""
        return self.superseded_by is None


class MemoryAuditEvent(BaseModel):
    """On `audit` (header event=memory): one change to one memory. Ids only, no content."""

    event: Literal["memory"] = "memory"
    change: MemoryChange
    tenant_id: str
    memory_id: str
    version: int
    user_id: str = ""
    claim_id: str = ""
    at: datetime
    cause: str = ""
    related: list[str] = Field(default_factory=list)  # superseded_by, merged, contradicts
    detail: str = ""


class MemberRef(BaseModel):
    """A memory a command acts on, and the version the command was planned against: a
    command whose memories changed since is stale and does nothing (the next scan
    plans again)."""

    memory_id: str = Field(pattern=MEMORY_ID_PATTERN)
    version: int = Field(ge=1)


class LlmJudgeUsage(BaseModel):
    """The LLM judge's calls during one scan: counts only, no text."""

    calls: dict[str, int] = Field(default_factory=dict)  # by outcome (ok, timeout, ...)
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    call_seconds: list[float] = Field(default_factory=list, max_length=1_000)


class ScanReport(BaseModel):
    """What one run of the consistency scan found and asked for (the memory stage turns it
    into metrics; `groundwire scan` prints it)."""

    run_id: str
    started_at: datetime
    finished_at: datetime
    duration_s: float = Field(ge=0.0)
    complete: bool  # every tenant was scanned (else it resumes at `next_tenant`)
    resumed_from: str | None = None
    next_tenant: str | None = None
    tenants_scanned: int = 0
    memories_scanned: int = 0
    clusters_found: int = 0  # clusters judged for the first time
    clusters_known: int = 0  # clusters judged before: their verdict was reused
    clusters_by_signal: dict[ConsistencySignal, int] = Field(default_factory=dict)
    verdicts: dict[ConsistencyVerdict, int] = Field(default_factory=dict)
    actions: dict[ConsistencyAction, int] = Field(default_factory=dict)  # commands issued
    capped: bool = False  # max_clusters_per_scan stopped it
    semantic_backend: str = ""  # "embedding" or "minhash"
    judge: str = ""  # "rule" or "llm"
    # The LLM judge's calls in this run (none for the rule judge): the scan runs in a
    # process of its own, so its cost reaches the metrics through this report.
    llm: LlmJudgeUsage | None = None


CommandKind = Literal["merge", "supersede", "flag", "retract", "scan_report"]


class MemoryCommand(BaseModel):
    """On `memories.commands` (key = tenant_id): a change the memory stage applies in order
    with the tenant's approved claims.

    * merge: `canonical` keeps the merged evidence, access counts and confidence; every
      other member gets superseded_by = canonical;
    * supersede: `canonical` is the newest memory; every other member gets valid_to =
      its valid_from and superseded_by = canonical;
    * flag: every member gets the others in contradicts_with and is sent to review;
    * retract: the members (or, with `user_id`, every memory of that user) are removed;
    * scan_report: `report` only (metrics and audit).
    """

    command_id: str = Field(min_length=1, max_length=ID_MAX)  # idempotency key
    kind: CommandKind
    tenant_id: str = Field(min_length=1, max_length=ID_MAX, pattern=ID_PATTERN)
    members: list[MemberRef] = Field(default_factory=list, max_length=MAX_MEMBERS)
    canonical: str | None = None
    user_id: str | None = Field(default=None, min_length=1, max_length=ID_MAX)  # retract a user
    verdict: ConsistencyVerdict | None = None
    signals: list[ConsistencySignal] = Field(default_factory=list)
    reason: str = Field(default="", max_length=1_000)
    issued_at: datetime
    issued_by: str = ""  # "scan:<run id>", "cli"
    report: ScanReport | None = None

    @model_validator(mode="after")
    def _shape(self) -> MemoryCommand:
        ids = [m.memory_id for m in self.members]
        if len(set(ids)) != len(ids):
            raise ValueError("a memory is named twice in members")
        if self.kind in ("merge", "supersede"):
            if len(ids) < 2 or self.canonical not in ids:
                raise ValueError(f"{self.kind} needs two or more members including canonical")
        elif self.kind == "flag":
            if len(ids) < 2:
                raise ValueError("flag needs two or more members")
        elif self.kind == "retract":
            if not ids and self.user_id is None:
                raise ValueError("retract needs members or a user_id")
        elif self.report is None:
            raise ValueError("scan_report needs a report")
        return self
