"""Unit tests of groundwire.metrics: what one routed result records, and label bounds."""

from __future__ import annotations

import secrets
import urllib.request
from datetime import UTC, datetime

import pytest

from groundwire import metrics
from groundwire.metrics import labels
from groundwire.metrics.registry import REGISTRY
from groundwire.topics.records import (
    CitationReport,
    Claim,
    EvidenceObject,
    GroundingReport,
    HedgeReport,
    RoutedResult,
    Tier,
    ValidationResult,
)


def value(name: str, **labelset: str) -> float:
    return REGISTRY.get_sample_value(name, labelset) or 0.0


def routed(
    tier: Tier = Tier.AUTO_APPROVE,
    reason: str = "From trusted source: user",
    *,
    verdict: str = "supported",
    hedge: HedgeReport | None = None,
    citations: list[CitationReport] | None = None,
    duplicate_of: str | None = None,
    passed: list[str] | None = None,
    failed: list[str] | None = None,
) -> RoutedResult:
    now = datetime.now(UTC)
    claim = Claim(
        claim_id=secrets.token_hex(4),
        tenant_id="tenant-secret-123",
        content="The service uses Postgres 16",
        source="user",
    )
    return RoutedResult(
        claim=claim,
        validation=ValidationResult(
            tier=tier,
            approved=tier == Tier.AUTO_APPROVE,
            reason=reason,
            evidence=EvidenceObject(claim=claim.content, capture_time=now, confidence="high"),
            checks_passed=passed or [],
            checks_failed=failed or [],
        ),
        hedge=hedge or HedgeReport(),
        citations=citations or [],
        grounding=GroundingReport(verdict=verdict),
        duplicate_of=duplicate_of,
        routed_at=now,
    )


def test_routed_counts_tier_reason_and_verdict() -> None:
    before_routed = value(
        "groundwire_claims_routed_total", tier="auto_approve", reason="trusted_source"
    )
    before_verdict = value("groundwire_grounding_verdicts_total", verdict="supported")
    before_blocked = value("groundwire_hallucination_blocked_total")

    metrics.observe_routed(routed())

    assert (
        value("groundwire_claims_routed_total", tier="auto_approve", reason="trusted_source")
        == before_routed + 1
    )
    assert value("groundwire_grounding_verdicts_total", verdict="supported") == before_verdict + 1
    assert value("groundwire_hallucination_blocked_total") == before_blocked


def test_not_supported_block_counts_one_hallucination_but_review_does_not() -> None:
    before = value("groundwire_hallucination_blocked_total")
    metrics.observe_routed(routed(Tier.BLOCK, "Grounding: NOT_SUPPORTED", verdict="NOT_SUPPORTED"))
    assert value("groundwire_hallucination_blocked_total") == before + 1
    # the same verdict routed to review (e.g. a lenient dev config) is not a blocked hallucination
    metrics.observe_routed(routed(Tier.FLAG_REVIEW, "not supported", verdict="not_supported"))
    assert value("groundwire_hallucination_blocked_total") == before + 1


def test_hedge_citations_and_dedup() -> None:
    b_hedge = value("groundwire_hedge_detections_total", category="personal_speculation")
    b_cit = value("groundwire_citations_total", type="adr", verified="true")
    b_unchecked = value("groundwire_citations_total", type="other", verified="unchecked")
    b_dup = value("groundwire_dedup_results_total", result="duplicate")
    result = routed(
        Tier.BLOCK,
        "Contains personal speculation",
        hedge=HedgeReport(action="block", category="Personal Speculation", words=["i think"]),
        citations=[
            CitationReport(type="adr", value="ADR-0001", verified=True),
            CitationReport(type="jira", value="X-1", verified=None),
        ],
        duplicate_of="claim-1",
    )
    metrics.observe_routed(result)
    assert (
        value("groundwire_hedge_detections_total", category="personal_speculation") == b_hedge + 1
    )
    assert value("groundwire_citations_total", type="adr", verified="true") == b_cit + 1
    assert (
        value("groundwire_citations_total", type="other", verified="unchecked") == b_unchecked + 1
    )
    assert value("groundwire_dedup_results_total", result="duplicate") == b_dup + 1


@pytest.mark.parametrize(
    ("passed", "failed", "reason", "expected"),
    [
        (["dedup"], [], "From trusted source: user", "unique"),
        ([], ["dedup"], "Dedup check failed - cannot verify uniqueness", "failed"),
        ([], [], "Dedup check failed - cannot verify uniqueness", "failed"),
        ([], [], "Duplicate of existing memory", "duplicate"),
        ([], [], "From trusted source: user", None),
    ],
)
def test_dedup_result_derivation(
    passed: list[str], failed: list[str], reason: str, expected: str | None
) -> None:
    from groundwire.metrics.dedup import dedup_result

    assert dedup_result(routed(reason=reason, passed=passed, failed=failed)) == expected


def test_reentry_rejections_from_failed_checks() -> None:
    before_prefix = value("groundwire_reentry_rejections_total", reason="reserved_prefix")
    before_time = value("groundwire_reentry_rejections_total", reason="created_after_claim")
    before_other = value("groundwire_reentry_rejections_total", reason="other")
    metrics.observe_routed(
        routed(
            Tier.FLAG_REVIEW,
            "Ungrounded assertion needs verification",
            verdict="skipped",
            failed=[
                # summary counts 3 rejected turns; only 2 are listed (policy caps the list)
                "reentry_rejections: 3 of 4 source turns",
                "reentry_rejected: chat:time-travel (reserved_prefix:chat:)",
                "reentry_rejected: t9 (created_after_claim)",
                "technical_hedge: probably",
            ],
        )
    )
    assert (
        value("groundwire_reentry_rejections_total", reason="reserved_prefix") == before_prefix + 1
    )
    assert (
        value("groundwire_reentry_rejections_total", reason="created_after_claim")
        == before_time + 1
    )
    assert value("groundwire_reentry_rejections_total", reason="other") == before_other + 1


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("source_not_allowed:model", "source_not_allowed"),
        # the detail after the colon is producer text and must not pick the code
        ("source_not_allowed:reserved-time", "source_not_allowed"),
        ("reserved_prefix:gen:", "reserved_prefix"),
        ("template_signature", "template_signature"),
        ("created_after_claim", "created_after_claim"),
        ("evidence was written by the assistant", "source_not_allowed"),
        ("", "other"),
    ],
)
def test_reentry_reason_codes(raw: str, code: str) -> None:
    assert labels.reentry_reason(raw) == code


@pytest.mark.parametrize(
    ("reason", "code"),
    [
        # the decision tree's reasons as seed 000 words them
        ("Contains personal speculation", "personal_speculation"),
        ("Duplicate of existing memory", "duplicate"),
        ("Contains technical hedges - needs verification", "technical_hedge"),
        ("Dedup check failed - cannot verify uniqueness", "dedup_failed"),
        ("Has verified citation", "verified_citation"),
        # producer-controlled detail after a colon or as the memory id cannot pick the code
        ("Has verified citation: ADR-7-speculation", "verified_citation"),
        ("Duplicate of existing memory speculation-42", "duplicate"),
        ("From trusted source: documentation", "trusted_source"),
        ("Decision stated in conversation", "decision_stated"),
        ("Preference stated by user", "preference_stated"),
        ("Ungrounded assertion needs verification", "ungrounded"),
        # codes pass through unchanged, in any case
        ("NOT_SUPPORTED", "not_supported"),
        ("verifier_failed", "verifier_failed"),
        ("", "other"),
        (None, "other"),
        ("something nobody planned for", "other"),
    ],
)
def test_reason_codes(reason: str | None, code: str) -> None:
    assert labels.reason_code(reason) == code


def test_every_rule_target_is_a_declared_code() -> None:
    targets = {code for _, code in labels._REASON_RULES}
    assert targets <= set(labels.REASON_CODES)
    assert {code for _, code in labels._REENTRY_RULES} <= set(labels.REENTRY_REASONS)


def test_label_cardinality_is_bounded_under_hostile_input() -> None:
    """Thousands of distinct free-text values must not create thousands of series."""

    def series(name: str) -> int:
        return sum(1 for family in REGISTRY.collect() for s in family.samples if s.name == name)

    for _ in range(2000):
        junk = secrets.token_hex(8)
        metrics.observe_routed(
            routed(
                reason=junk,
                verdict=junk,
                hedge=HedgeReport(action="review", category=f"cat {junk}"),
                citations=[CitationReport(type=junk, value=junk, verified=False)],
                failed=[f"provenance:{junk}"],
            )
        )
        metrics.observe_dlq(junk)
        metrics.observe_stage_latency(junk, 0.001)

    assert series("groundwire_claims_routed_total") <= len(labels.TIERS) * len(labels.REASON_CODES)
    assert series("groundwire_grounding_verdicts_total") <= len(labels.GROUNDING_VERDICTS)
    assert series("groundwire_dlq_records_total") <= len(labels.DLQ_REASONS)
    assert series("groundwire_citations_total") <= len(labels.CITATION_TYPES) * len(
        labels.CITATION_VERIFIED
    )
    assert series("groundwire_reentry_rejections_total") <= len(labels.REENTRY_REASONS)
    assert series("groundwire_hedge_detections_total") <= len(labels.HEDGE_CATEGORIES) + 1 + 16
    assert series("groundwire_stage_latency_seconds_count") <= len(labels.STAGES)


def test_no_tenant_or_claim_text_in_any_label() -> None:
    metrics.observe_routed(routed())
    for family in REGISTRY.collect():
        for sample in family.samples:
            for label_value in sample.labels.values():
                assert "tenant-secret-123" not in label_value
                assert "Postgres" not in label_value


def test_stage_latency_dlq_and_lag() -> None:
    b_count = value("groundwire_stage_latency_seconds_count", stage="route")
    b_dlq = value("groundwire_dlq_records_total", reason="not_json")
    metrics.observe_stage_latency("route", 0.002)
    metrics.observe_stage_latency("route", -1.0)  # ignored: clock stepped back
    metrics.observe_dlq("not_json")
    metrics.set_consumer_lag("gw", "groundwire.claims", 3, 42)
    metrics.set_consumer_lag("gw", "groundwire.claims", 4, -5)
    metrics.observe_grounding_latency(0.12)
    metrics.observe_review_backlog(7)
    assert value("groundwire_stage_latency_seconds_count", stage="route") == b_count + 1
    assert value("groundwire_dlq_records_total", reason="not_json") == b_dlq + 1
    assert (
        value("groundwire_consumer_lag", group="gw", topic="groundwire.claims", partition="3") == 42
    )
    assert (
        value("groundwire_consumer_lag", group="gw", topic="groundwire.claims", partition="4") == 0
    )
    assert value("groundwire_review_backlog") == 7


def test_series_exist_at_zero_before_any_event() -> None:
    """Pre-created series make increase() exact from the first scrape."""
    assert (
        REGISTRY.get_sample_value("groundwire_dlq_records_total", {"reason": "too_large"})
        is not None
    )
    assert (
        REGISTRY.get_sample_value("groundwire_grounding_verdicts_total", {"verdict": "unknown"})
        is not None
    )


def test_metric_names_follow_prometheus_conventions() -> None:
    for family in REGISTRY.collect():
        if not family.name.startswith("groundwire_"):
            continue
        if family.type == "counter":
            assert all(s.name.endswith(("_total", "_created")) for s in family.samples)
        if family.type == "histogram":
            assert family.name.endswith("_seconds")
        for sample in family.samples:
            assert not sample.name.endswith(("_ms", "_milliseconds"))


def test_metrics_server_serves_and_port_zero_disables() -> None:
    import socket

    metrics.start_metrics_server(0)  # disabled: no exception, nothing bound
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    metrics.start_metrics_server(port, addr="127.0.0.1")
    try:
        metrics.start_metrics_server(port, addr="127.0.0.1")  # idempotent
        with pytest.raises(RuntimeError):
            metrics.start_metrics_server(port + 1 if port < 65535 else port - 1)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as resp:
            body = resp.read().decode()
        assert "groundwire_claims_routed_total" in body
        assert "process_cpu_seconds_total" in body
    finally:
        metrics.stop_metrics_server()


def test_citation_cache_counters_keep_bounded_labels() -> None:
    before = value("groundwire_citation_lookups_total", source="shared")
    metrics.observe_citation_lookups("shared", 3)
    metrics.observe_citation_lookups("bogus-source", 1)
    assert value("groundwire_citation_lookups_total", source="shared") == before + 3
    assert value("groundwire_citation_lookups_total", source="other") >= 1
    before_err = value("groundwire_citation_cache_errors_total", op="read")
    metrics.observe_citation_cache_error("read")
    assert value("groundwire_citation_cache_errors_total", op="read") == before_err + 1
