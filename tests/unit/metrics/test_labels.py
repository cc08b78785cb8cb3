"""Metric labels come from the vocabulary's codes, never from prose.

* every enum of topics/vocab.py that labels a metric has a label for every member (the
  label tuples are derived from the enums; a new member cannot go uncounted);
* the real tier policy, driven through every branch, emits one `ReasonCode` per outcome
  and the routed counter counts exactly that code;
* dedup outcomes and re-entry reasons are counted from the structured fields of the
  routed result, whatever the human-readable text says;
* every label value the alert rules, their promtool tests and the dashboard select on is
  one the code can write.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import pytest
import yaml

from groundwire import metrics
from groundwire.guards.config import GuardsConfig
from groundwire.guards.policy import build_validation, determine_tier
from groundwire.guards.protocols import DedupResult
from groundwire.metrics import labels
from groundwire.metrics.dashboard import expressions
from groundwire.metrics.registry import REGISTRY
from groundwire.metrics.screening import reentry_reasons
from groundwire.topics import vocab
from groundwire.topics.records import (
    CitationReport,
    Claim,
    GroundingReport,
    HedgeReport,
    ProvenanceReport,
    RoutedResult,
    ScreenedClaim,
)
from groundwire.topics.vocab import DedupOutcome, ReasonCode, ReentryReason
from tests.support import REPO

UNIQUE = DedupResult(is_duplicate=False)

# Enums on the wire that label no metric (the hedge metric counts categories, not actions;
# claim sources are not a label; review roles are on the audit events only).
NOT_METRIC_LABELS: set[type[StrEnum]] = {
    vocab.Source,
    vocab.HedgeAction,
    vocab.ReviewRole,
    vocab.CitationSupport,  # in the checks and tags of a routed result, not a metric label
    # a scored answer's configured policy, citation checks and warnings are in the record;
    # the metrics count its action, risk, claims and phantom citations
    vocab.AnswerPolicy,
    vocab.AnswerCitationStatus,
    vocab.AnswerWarningType,
}


def _vocab_enums() -> list[type[StrEnum]]:
    return [
        obj
        for obj in vars(vocab).values()
        if isinstance(obj, type)
        and issubclass(obj, StrEnum)
        and obj is not StrEnum
        and obj.__module__ == vocab.__name__
    ]


def value(name: str, **labelset: str) -> float:
    return REGISTRY.get_sample_value(name, labelset) or 0.0


# -- every enum member has a label ------------------------------------------------------


def test_every_vocab_enum_is_a_metric_label_or_declared_not_one() -> None:
    for enum in _vocab_enums():
        assert (enum in labels.LABELS_BY_ENUM) != (enum in NOT_METRIC_LABELS), (
            f"{enum.__name__}: add its label tuple to labels.LABELS_BY_ENUM "
            "(or list it in NOT_METRIC_LABELS if no metric uses it)"
        )


@pytest.mark.parametrize("enum", list(labels.LABELS_BY_ENUM), ids=lambda e: e.__name__)
def test_every_member_has_a_label(enum: type[StrEnum]) -> None:
    tuple_ = labels.LABELS_BY_ENUM[enum]
    uncounted = {m.value for m in labels.NOT_COUNTED.get(enum, ())}
    for member in enum:
        if member.value not in uncounted:
            assert member.value in tuple_, f"{enum.__name__}.{member.name} has no metric label"
    # and nothing else: no free-text bucket where the value cannot be outside the enum
    assert set(tuple_) == {m.value for m in enum} - uncounted


def test_label_tuples_match_the_enums_and_keep_known_values() -> None:
    # the two dlq reasons that used to be counted as "other"
    assert {"empty", "invalid_screened"} <= set(labels.DLQ_REASONS)
    # values the rules, dashboards and docs have always used
    assert {"not_supported", "duplicate", "trusted_source", "reentry"} <= set(labels.REASON_CODES)
    assert labels.DEDUP_RESULTS == ("unique", "duplicate", "failed", "variant")


@pytest.mark.parametrize(
    ("metric", "label", "tuple_"),
    [
        ("groundwire_claims_routed_total", "reason", labels.REASON_CODES),
        ("groundwire_grounding_verdicts_total", "verdict", labels.GROUNDING_VERDICTS),
        ("groundwire_dedup_results_total", "result", labels.DEDUP_RESULTS),
        ("groundwire_dlq_records_total", "reason", labels.DLQ_REASONS),
        ("groundwire_reentry_rejections_total", "reason", labels.REENTRY_REASONS),
        ("groundwire_hedge_detections_total", "category", labels.HEDGE_CATEGORIES),
        ("groundwire_citations_total", "type", labels.CITATION_TYPES),
    ],
)
def test_every_label_value_exists_at_zero(metric: str, label: str, tuple_: tuple) -> None:
    seen = {
        s.labels[label]
        for family in REGISTRY.collect()
        for s in family.samples
        if s.name == metric and label in s.labels
    }
    assert seen == set(tuple_)


# -- the policy emits the code, the counter counts it -----------------------------------


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
    phantoms = kwargs.pop("phantoms", [])
    assert not kwargs, kwargs
    screened = ScreenedClaim(
        claim=claim, hedge=hedge, citations=citations, provenance=provenance, phantoms=phantoms
    )
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
        provenance=provenance,
        grounding=grounding,
        duplicate_of=dedup.duplicate_of if dedup and dedup.is_duplicate else None,
        routed_at=now,
    )


def _cfg(policy: dict[str, Any] | None = None, **grounding: Any) -> GuardsConfig:
    cfg = GuardsConfig()
    return cfg.model_copy(
        update={
            "grounding": cfg.grounding.model_copy(update=grounding),
            "policy": cfg.policy.model_copy(update=policy or {}),
        },
        deep=True,
    )


def _hedge(action: str, category: str | None) -> HedgeReport:
    return HedgeReport(action=action, category=category, words=["x"])


BRANCHES: list[tuple[str, dict[str, Any], ReasonCode]] = [
    (
        "personal speculation",
        {"hedge": _hedge("block", "personal_speculation")},
        ReasonCode.PERSONAL_SPECULATION,
    ),
    (
        "admitted uncertainty",
        {"hedge": _hedge("block", "admitted_uncertainty")},
        ReasonCode.ADMITTED_UNCERTAINTY,
    ),
    ("suggestion", {"hedge": _hedge("block", "suggestion")}, ReasonCode.SUGGESTION),
    ("blocking hedge, no category", {"hedge": _hedge("block", None)}, ReasonCode.SPECULATION),
    (
        "duplicate",
        {"dedup": DedupResult(is_duplicate=True, duplicate_of="m-speculation", similarity=0.97)},
        ReasonCode.DUPLICATE,
    ),
    (
        "all evidence rejected",
        {
            "provenance": ProvenanceReport(
                rejections={"chat:1": "reserved_prefix"}, rejection_details={"chat:1": "chat:"}
            ),
            "grounding": GroundingReport(verdict="not_supported"),
        },
        ReasonCode.REENTRY,
    ),
    (
        "a cited turn failed provenance (auditor rule)",
        {
            "provenance": ProvenanceReport(
                eligible_turn_ids=["p1"], rejections={"chat:1": "reserved_prefix"}
            ),
            "grounding": GroundingReport(verdict="supported"),
        },
        ReasonCode.CITED_TURN_REJECTED,
    ),
    (
        "not supported",
        {"grounding": GroundingReport(verdict="not_supported")},
        ReasonCode.NOT_SUPPORTED,
    ),
    (
        "cited artifact contradicts",
        {
            "citations": [
                CitationReport(type="adr", value="ADR-1", verified=True, support="contradicted")
            ]
        },
        ReasonCode.CITATION_CONTRADICTED,
    ),
    (
        "partial below minimum",
        {
            "grounding": GroundingReport(verdict="partial", confidence_penalty=0.3),
            "confidence": 0.4,
        },
        ReasonCode.LOW_CONFIDENCE,
    ),
    (
        "technical hedge",
        {"hedge": _hedge("review", "technical_hedge")},
        ReasonCode.TECHNICAL_HEDGE,
    ),
    ("approximation", {"hedge": _hedge("review", "approximation")}, ReasonCode.APPROXIMATION),
    (
        "dedup failed",
        {"dedup": DedupResult(is_duplicate=False, failed=True, error="timeout")},
        ReasonCode.DEDUP_FAILED,
    ),
    (
        "variant of a memory",
        {"dedup": DedupResult(is_duplicate=False, variant_of="m1", variant_similarity=0.95)},
        ReasonCode.VARIANT_OF_MEMORY,
    ),
    (
        "verifier failed, queue",
        {"grounding": GroundingReport(verdict="unknown")},
        ReasonCode.VERIFIER_FAILED,
    ),
    (
        "verifier failed, block",
        {"grounding": GroundingReport(verdict="unknown"), "cfg": _cfg(on_verifier_failure="block")},
        ReasonCode.VERIFIER_FAILED,
    ),
    (
        "verifier failed, allow with flag: the next rule decides",
        {
            "grounding": GroundingReport(verdict="unknown"),
            "cfg": _cfg(on_verifier_failure="allow_with_flag"),
        },
        ReasonCode.UNGROUNDED,
    ),
    (
        "refuted citation",
        {"citations": [CitationReport(type="adr", value="ADR-9", verified=False)]},
        ReasonCode.CITATION_UNVERIFIED,
    ),
    (
        "cited artifact does not say it",
        {
            "citations": [
                CitationReport(type="adr", value="ADR-1", verified=True, support="unrelated")
            ]
        },
        ReasonCode.CITATION_UNSUPPORTED,
    ),
    ("phantom reference", {"phantoms": ["src/x/y.py"]}, ReasonCode.PHANTOM_REFERENCE),
    (
        "verified citation",
        {"citations": [CitationReport(type="adr", value="ADR-1", verified=True)]},
        ReasonCode.VERIFIED_CITATION,
    ),
    ("trusted source", {"source": "documentation"}, ReasonCode.TRUSTED_SOURCE),
    (
        "decision in conversation",
        {"source": "conversation", "memory_type": "decision"},
        ReasonCode.DECISION_STATED,
    ),
    (
        "preference",
        {"source": "chat", "memory_type": "preference"},
        ReasonCode.PREFERENCE_STATED,
    ),
    ("supported", {"grounding": GroundingReport(verdict="supported")}, ReasonCode.GROUNDED),
    (
        "partial kept for review (approve_partial off)",
        {
            "grounding": GroundingReport(verdict="partial", confidence_penalty=0.1),
            "cfg": _cfg(policy={"approve_partial": False}),
        },
        ReasonCode.PARTIAL_GROUNDING,
    ),
    (
        "partial approved (the default)",
        {"grounding": GroundingReport(verdict="partial", confidence_penalty=0.1)},
        ReasonCode.PARTIAL_GROUNDING,
    ),
    ("nothing to go on", {}, ReasonCode.UNGROUNDED),
]


# Codes the tier policy never emits: the review queue's feed blocks a flagged claim with
# this one when the queue is full (tests/unit/streams/review).
# The review feed's overflow, and the consistency scan's contradiction review items.
NOT_POLICY_CODES = {ReasonCode.REVIEW_QUEUE_FULL, ReasonCode.CONTRADICTS_MEMORY}


def test_every_reason_code_is_reached_by_a_policy_branch() -> None:
    assert {code for *_, code in BRANCHES} == set(ReasonCode) - NOT_POLICY_CODES


@pytest.mark.parametrize(
    ("kwargs", "code"), [b[1:] for b in BRANCHES], ids=[b[0] for b in BRANCHES]
)
def test_the_policy_emits_the_code_and_the_counter_counts_it(
    kwargs: dict[str, Any], code: ReasonCode
) -> None:
    result = _routed(**dict(kwargs))
    assert result.validation.reason_code is code, result.validation.reason
    tier = result.validation.tier.value
    before = value("groundwire_claims_routed_total", tier=tier, reason=code.value)
    metrics.observe_routed(result)
    assert value("groundwire_claims_routed_total", tier=tier, reason=code.value) == before + 1


def test_the_reason_text_does_not_choose_the_label() -> None:
    """Prose that reads like another outcome changes nothing: only the code counts."""
    result = _routed(source="documentation")
    misleading = result.validation.model_copy(
        update={"reason": "Duplicate of existing memory; not supported; dedup failed"}
    )
    result = result.model_copy(update={"validation": misleading})
    before = value("groundwire_claims_routed_total", tier="auto_approve", reason="trusted_source")
    metrics.observe_routed(result)
    assert (
        value("groundwire_claims_routed_total", tier="auto_approve", reason="trusted_source")
        == before + 1
    )


# -- dedup outcomes and re-entry reasons from structured fields -----------------------


@pytest.mark.parametrize(
    ("dedup", "hedge", "outcome"),
    [
        (UNIQUE, HedgeReport(), DedupOutcome.UNIQUE),
        (DedupResult(is_duplicate=False, failed=True, error="redis down"), None, "failed"),
        (DedupResult(is_duplicate=True, duplicate_of="m1"), None, DedupOutcome.DUPLICATE),
        # speculation decided the tier first; the duplicate is still counted as one
        (
            DedupResult(is_duplicate=True, duplicate_of="m1"),
            _hedge("block", "personal_speculation"),
            DedupOutcome.DUPLICATE,
        ),
        (None, None, DedupOutcome.SKIPPED),
    ],
)
def test_dedup_outcome_is_the_policys(
    dedup: DedupResult | None, hedge: HedgeReport | None, outcome: str
) -> None:
    result = _routed(dedup=dedup, hedge=hedge or HedgeReport())
    assert result.validation.dedup == outcome
    before = {r: value("groundwire_dedup_results_total", result=r) for r in labels.DEDUP_RESULTS}
    metrics.observe_routed(result)
    after = {r: value("groundwire_dedup_results_total", result=r) for r in labels.DEDUP_RESULTS}
    expected = dict(before)
    if outcome != DedupOutcome.SKIPPED:
        expected[str(outcome)] += 1
    assert after == expected


def test_every_rejected_turn_is_counted_by_its_code() -> None:
    rejections = {f"gen:{i}": ReentryReason.RESERVED_PREFIX for i in range(12)}
    rejections["t-late"] = ReentryReason.CREATED_AFTER_CLAIM
    rejections["m-1"] = ReentryReason.SOURCE_NOT_ALLOWED
    details = {f"gen:{i}": "gen:" for i in range(12)} | {"m-1": "model"}
    result = _routed(
        provenance=ProvenanceReport(
            eligible_turn_ids=["t1"], rejections=rejections, rejection_details=details
        ),
        grounding=GroundingReport(verdict="supported"),
    )
    # the policy lists at most ten turns in its checks; the counter still sees all 14
    assert sum(c.startswith("reentry_rejected: ") for c in result.validation.checks_failed) == 10
    assert "reentry_rejected: gen:0 (reserved_prefix:gen:)" in result.validation.checks_failed
    reasons = reentry_reasons(result)
    assert sorted(reasons) == sorted(r.value for r in rejections.values())
    before = {
        r: value("groundwire_reentry_rejections_total", reason=r) for r in labels.REENTRY_REASONS
    }
    metrics.observe_routed(result)
    after = {
        r: value("groundwire_reentry_rejections_total", reason=r) for r in labels.REENTRY_REASONS
    }
    assert {r: after[r] - before[r] for r in after if after[r] != before[r]} == {
        "reserved_prefix": 12,
        "created_after_claim": 1,
        "source_not_allowed": 1,
    }


# -- what the rules and the dashboard select on exists -----------------------------------

_LABELS_OF_METRIC: dict[str, dict[str, tuple[str, ...]]] = {
    "groundwire_claims_routed_total": {"tier": labels.TIERS, "reason": labels.REASON_CODES},
    "groundwire_grounding_verdicts_total": {"verdict": labels.GROUNDING_VERDICTS},
    "groundwire_dedup_results_total": {"result": labels.DEDUP_RESULTS},
    "groundwire_dlq_records_total": {"reason": labels.DLQ_REASONS},
    "groundwire_reentry_rejections_total": {"reason": labels.REENTRY_REASONS},
    "groundwire_hedge_detections_total": {"category": labels.HEDGE_CATEGORIES},
    "groundwire_citations_total": {
        "type": labels.CITATION_TYPES,
        "verified": labels.CITATION_VERIFIED,
    },
}
_SELECTOR = re.compile(r"\b(groundwire_[a-z_]+)\{([^}]*)\}")
_MATCHER = re.compile(r'([a-z_]+)\s*(=|!=)\s*"([^"]*)"')


def _selector_texts() -> list[tuple[str, str]]:
    texts = [(p.name, p.read_text()) for p in sorted((REPO / "metrics" / "rules").rglob("*.yml"))]
    for _, text in texts:
        yaml.safe_load(text)  # a file that does not parse would hide its selectors
    dashboard = json.loads((REPO / "metrics" / "dashboards" / "hallucination.json").read_text())
    texts += [(f"dashboard: {title}", expr) for title, expr in expressions(dashboard)]
    return texts


def test_rules_tests_and_dashboard_select_only_values_the_code_writes() -> None:
    checked = 0
    for name, text in _selector_texts():
        for metric, body in _SELECTOR.findall(text):
            known = _LABELS_OF_METRIC.get(metric, {})
            for label, _, wanted in _MATCHER.findall(body):
                if label in known:
                    assert wanted in known[label], f'{name}: {metric}{{{label}="{wanted}"}}'
                    checked += 1
    assert checked >= 10
