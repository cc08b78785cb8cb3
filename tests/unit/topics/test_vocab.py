"""The vocabulary reaches the wire: every enum of topics/vocab.py is what a JSON Schema
field enforces, value for value, so a member added to an enum without regenerating the
schemas (or a wire field left as a plain string) fails here."""

from __future__ import annotations

import inspect
import json
from enum import StrEnum
from typing import Any

import pytest

from groundwire.topics import vocab
from groundwire.topics.records import ProvenanceReport, ScreenedClaim
from groundwire.topics.schemas import MODELS, load_schema

ENUMS: list[type[StrEnum]] = [
    obj
    for _, obj in inspect.getmembers(vocab, inspect.isclass)
    if issubclass(obj, StrEnum) and obj is not StrEnum and obj.__module__ == vocab.__name__
]

# (schema, model holding the field, field) -> the enum the field must be typed with
FIELDS: dict[tuple[str, str, str], type[StrEnum]] = {
    ("claim", "Claim", "source"): vocab.Source,
    ("routed_result", "ValidationResult", "tier"): vocab.Tier,
    ("routed_result", "ValidationResult", "reason_code"): vocab.ReasonCode,
    ("routed_result", "ValidationResult", "dedup"): vocab.DedupOutcome,
    ("routed_result", "HedgeReport", "action"): vocab.HedgeAction,
    ("routed_result", "HedgeReport", "category"): vocab.HedgeCategory,
    ("routed_result", "CitationReport", "type"): vocab.CitationType,
    ("routed_result", "CitationReport", "support"): vocab.CitationSupport,
    ("routed_result", "GroundingReport", "verdict"): vocab.GroundingVerdict,
    ("routed_result", "ProvenanceReport", "rejections"): vocab.ReentryReason,
    ("screened_claim", "HedgeReport", "action"): vocab.HedgeAction,
    ("screened_claim", "HedgeReport", "category"): vocab.HedgeCategory,
    ("screened_claim", "CitationReport", "type"): vocab.CitationType,
    ("screened_claim", "CitationReport", "support"): vocab.CitationSupport,
    ("screened_claim", "GroundingReport", "verdict"): vocab.GroundingVerdict,
    ("screened_claim", "ProvenanceReport", "rejections"): vocab.ReentryReason,
    ("screened_claim", "ProducerAuthReport", "outcome"): vocab.ProducerAuthOutcome,
    ("screened_claim", "ProducerAuthReport", "action"): vocab.ProducerAuthAction,
    ("routed_result", "ProducerAuthReport", "outcome"): vocab.ProducerAuthOutcome,
    ("routed_result", "ProducerAuthReport", "action"): vocab.ProducerAuthAction,
    ("scored_answer", "ScoredAnswer", "risk"): vocab.RiskLevel,
    ("scored_answer", "ScoredAnswer", "policy"): vocab.AnswerPolicy,
    ("scored_answer", "ScoredAnswer", "action"): vocab.AnswerAction,
    ("scored_answer", "AnswerClaim", "kind"): vocab.ClaimKind,
    ("scored_answer", "AnswerClaim", "verdict"): vocab.AnswerClaimVerdict,
    ("scored_answer", "CitationCheck", "status"): vocab.AnswerCitationStatus,
    ("scored_answer", "UncitedFinding", "finding"): vocab.UncitedClass,
    ("scored_answer", "AnswerWarning", "type"): vocab.AnswerWarningType,
    ("scored_answer", "RegenerationAttempt", "risk"): vocab.RiskLevel,
    ("scored_answer", "GroundingReport", "verdict"): vocab.GroundingVerdict,
    ("dlq_record", "DlqRecord", "reason"): vocab.DlqReason,
    ("replay_notice", "ReplayNotice", "earlier_tier"): vocab.Tier,
    ("reviewed_result", "ReviewSection", "decision"): vocab.ReviewDecision,
    ("reviewed_result", "ReviewSection", "role"): vocab.ReviewRole,
    ("reviewed_result", "ValidationResult", "reason_code"): vocab.ReasonCode,
    ("review_audit_event", "ReviewAuditEvent", "action"): vocab.ReviewAction,
    ("review_audit_event", "ReviewAuditEvent", "role"): vocab.ReviewRole,
    ("review_audit_event", "ReviewAuditEvent", "denial"): vocab.ReviewDenial,
    ("review_audit_event", "ReviewAuditEvent", "limit"): vocab.ReviewLimit,
    ("memory_record", "MemoryRecord", "change"): vocab.MemoryChange,
    ("memory_record", "MemoryRecord", "source"): vocab.Source,
    ("memory_audit_event", "MemoryAuditEvent", "change"): vocab.MemoryChange,
    ("memory_command", "MemoryCommand", "verdict"): vocab.ConsistencyVerdict,
    ("memory_command", "MemoryCommand", "signals"): vocab.ConsistencySignal,
    ("memory_command", "ScanReport", "actions"): vocab.ConsistencyAction,
    ("memory_command", "ScanReport", "verdicts"): vocab.ConsistencyVerdict,
}

# Schemas with no closed vocabulary in them (an answer is ids and free text).
NO_ENUM_SCHEMAS = {"answer"}


def _model(schema: dict[str, Any], name: str) -> dict[str, Any]:
    return schema if schema.get("title") == name else schema["$defs"][name]


def _refs(node: Any) -> list[str]:
    """Every $ref under a property (direct, in anyOf, as dict values or list items)."""
    if isinstance(node, dict):
        found = [node["$ref"]] if "$ref" in node else []
        for value in node.values():
            found += _refs(value)
        return found
    if isinstance(node, list):
        return [ref for item in node for ref in _refs(item)]
    return []


def test_the_vocabulary_is_what_the_test_knows() -> None:
    assert {e.__name__ for e in ENUMS} == {e.__name__ for e in FIELDS.values()}, (
        "a new enum in topics/vocab.py needs its wire field listed in FIELDS"
    )


@pytest.mark.parametrize(("where", "enum"), list(FIELDS.items()), ids=[".".join(k) for k in FIELDS])
def test_the_schema_field_enforces_exactly_the_enum(
    where: tuple[str, str, str], enum: type[StrEnum]
) -> None:
    schema_name, model, field = where
    schema = load_schema(schema_name)
    prop = _model(schema, model)["properties"][field]
    refs = _refs(prop)
    assert refs == [f"#/$defs/{enum.__name__}"], f"{model}.{field} is not typed {enum.__name__}"
    assert schema["$defs"][enum.__name__]["enum"] == [m.value for m in enum]


def test_every_schema_is_covered() -> None:
    assert {k[0] for k in FIELDS} | NO_ENUM_SCHEMAS == set(MODELS)


def test_provenance_rejections_carry_no_detail_in_the_code() -> None:
    report = ProvenanceReport(
        rejections={"a": "source_not_allowed", "b": "created_after_claim"},
        rejection_details={"a": "model"},
    )
    assert report.rejections == {
        "a": vocab.ReentryReason.SOURCE_NOT_ALLOWED,
        "b": vocab.ReentryReason.CREATED_AFTER_CLAIM,
    }
    with pytest.raises(ValueError):
        ProvenanceReport(rejections={"a": "looked odd"})


def test_a_screened_record_from_an_older_screen_worker_still_reads() -> None:
    """Mid rolling upgrade the route stage reads reasons written as "code:detail"; the
    code survives, the detail (only ever shown in check texts) is dropped."""
    claim = {"claim_id": "c", "tenant_id": "t", "content": "x", "source": "user"}
    legacy = {
        "claim": claim,
        "hedge": {"action": "none"},
        "provenance": {
            "eligible_turn_ids": ["k"],
            "rejections": {"chat:1": "reserved_prefix:chat:", "m": "source_not_allowed:model"},
        },
    }
    report = ScreenedClaim.model_validate_json(json.dumps(legacy)).provenance
    assert report.rejections == {"chat:1": "reserved_prefix", "m": "source_not_allowed"}
    assert report.rejection_details == {}
    with pytest.raises(ValueError):
        ProvenanceReport(rejections={"m": "not_a_reason:model"})
