"""The metrics' mappings against the real tier policy's wording (guards/policy.py).

The policy writes free-text reasons and check strings; metrics turn them into bounded
codes. These tests drive the real `determine_tier` through every branch, so a wording
change in the policy that the mapping no longer recognises fails here instead of silently
moving counts to "other" on the dashboard.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from groundwire.guards.config import GuardsConfig
from groundwire.guards.policy import build_validation, determine_tier
from groundwire.guards.protocols import DedupResult
from groundwire.metrics import labels
from groundwire.metrics.dedup import dedup_result
from groundwire.metrics.screening import reentry_reasons
from groundwire.topics.records import (
    CitationReport,
    Claim,
    GroundingReport,
    HedgeReport,
    ProvenanceReport,
    RoutedResult,
    ScreenedClaim,
)

UNIQUE = DedupResult(is_duplicate=False)


def _routed(**kwargs: Any) -> RoutedResult:
    cfg: GuardsConfig = kwargs.pop("cfg", GuardsConfig())
    claim = Claim(
        claim_id="c1",
        tenant_id="t1",
        content="The API uses JWT",
        source=kwargs.pop("source", "ai_synthesis"),
        memory_type=kwargs.pop("memory_type", "fact"),
        confidence=kwargs.pop("confidence", 0.9),
    )
    hedge = kwargs.pop("hedge", HedgeReport())
    citations = kwargs.pop("citations", [])
    grounding = kwargs.pop("grounding", GroundingReport())
    dedup = kwargs.pop("dedup", UNIQUE)
    provenance = kwargs.pop("provenance", ProvenanceReport())
    screened = ScreenedClaim(claim=claim, hedge=hedge, citations=citations, provenance=provenance)
    decision = determine_tier(screened, grounding=grounding, dedup=dedup, cfg=cfg)
    now = datetime.now(UTC)
    validation = build_validation(
        claim, decision, citations=citations, grounding=grounding, dedup=dedup, now=now
    )
    return RoutedResult(
        claim=claim,
        validation=validation,
        hedge=hedge,
        citations=citations,
        grounding=grounding,
        duplicate_of=dedup.duplicate_of if dedup and dedup.is_duplicate else None,
        routed_at=now,
    )


def _cfg(**grounding: Any) -> GuardsConfig:
    cfg = GuardsConfig()
    return cfg.model_copy(
        update={"grounding": cfg.grounding.model_copy(update=grounding)}, deep=True
    )


BRANCHES: list[tuple[str, dict[str, Any], str]] = [
    (
        "personal speculation",
        {"hedge": HedgeReport(action="block", category="personal_speculation", words=["x"])},
        "personal_speculation",
    ),
    (
        "admitted uncertainty",
        {"hedge": HedgeReport(action="block", category="admitted_uncertainty", words=["x"])},
        "admitted_uncertainty",
    ),
    (
        "suggestion",
        {"hedge": HedgeReport(action="block", category="suggestion", words=["x"])},
        "suggestion",
    ),
    (
        "duplicate",
        {"dedup": DedupResult(is_duplicate=True, duplicate_of="m-speculation", similarity=0.97)},
        "duplicate",
    ),
    (
        "all evidence rejected",
        {
            "provenance": ProvenanceReport(rejections={"chat:1": "reserved_prefix:chat:"}),
            "grounding": GroundingReport(verdict="not_supported"),
        },
        "reentry",
    ),
    ("not supported", {"grounding": GroundingReport(verdict="not_supported")}, "not_supported"),
    (
        "partial below minimum",
        {
            "grounding": GroundingReport(verdict="partial", confidence_penalty=0.3),
            "confidence": 0.4,
        },
        "low_confidence",
    ),
    (
        "technical hedge",
        {"hedge": HedgeReport(action="review", category="technical_hedge", words=["x"])},
        "technical_hedge",
    ),
    (
        "approximation",
        {"hedge": HedgeReport(action="review", category="approximation", words=["x"])},
        "approximation",
    ),
    (
        "dedup failed",
        {"dedup": DedupResult(is_duplicate=False, failed=True, error="timeout")},
        "dedup_failed",
    ),
    (
        "verifier failed, queue",
        {"grounding": GroundingReport(verdict="unknown")},
        "verifier_failed",
    ),
    (
        "verifier failed, block",
        {"grounding": GroundingReport(verdict="unknown"), "cfg": _cfg(on_verifier_failure="block")},
        "verifier_failed",
    ),
    (
        "refuted citation",
        {"citations": [CitationReport(type="adr", value="ADR-9", verified=False)]},
        "citation_unverified",
    ),
    (
        "verified citation",
        {"citations": [CitationReport(type="adr", value="ADR-1", verified=True)]},
        "verified_citation",
    ),
    ("trusted source", {"source": "documentation"}, "trusted_source"),
    (
        "decision in conversation",
        {"source": "conversation", "memory_type": "decision"},
        "decision_stated",
    ),
    ("preference", {"source": "chat", "memory_type": "preference"}, "preference_stated"),
    ("supported", {"grounding": GroundingReport(verdict="supported")}, "grounded"),
    (
        "partial kept for review",
        {"grounding": GroundingReport(verdict="partial", confidence_penalty=0.1)},
        "partial_grounding",
    ),
    ("nothing to go on", {}, "ungrounded"),
]


@pytest.mark.parametrize(
    ("kwargs", "code"), [b[1:] for b in BRANCHES], ids=[b[0] for b in BRANCHES]
)
def test_every_policy_reason_maps_to_its_code(kwargs: dict[str, Any], code: str) -> None:
    result = _routed(**dict(kwargs))
    assert labels.reason_code(result.validation.reason) == code, result.validation.reason


def test_dedup_outcomes_from_policy_checks() -> None:
    assert dedup_result(_routed(dedup=UNIQUE)) == "unique"
    failed = DedupResult(is_duplicate=False, failed=True, error="redis down")
    assert dedup_result(_routed(dedup=failed)) == "failed"
    dup = DedupResult(is_duplicate=True, duplicate_of="m1")
    assert dedup_result(_routed(dedup=dup)) == "duplicate"
    # speculation decided the tier first, the duplicate is still counted as one
    spec = HedgeReport(action="block", category="personal_speculation", words=["i think"])
    assert dedup_result(_routed(dedup=dup, hedge=spec)) == "duplicate"
    assert dedup_result(_routed(dedup=None)) is None


def test_reentry_reasons_from_policy_checks() -> None:
    rejections = {f"gen:{i}": "reserved_prefix:gen:" for i in range(12)}
    rejections["t-late"] = "created_after_claim"
    rejections["m-1"] = "source_not_allowed:model"
    result = _routed(
        provenance=ProvenanceReport(eligible_turn_ids=["t1"], rejections=rejections),
        grounding=GroundingReport(verdict="supported"),
    )
    reasons = reentry_reasons(result)
    # every rejected turn counted once, although the policy lists only ten of them
    assert len(reasons) == len(rejections)
    assert set(reasons) <= set(labels.REENTRY_REASONS)
    assert reasons.count("reserved_prefix") == 10
    assert reasons.count("other") == len(rejections) - 10
