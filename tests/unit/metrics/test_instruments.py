"""Unit tests of groundwire.metrics: what one routed result records, and label bounds.

The code-based mapping itself (policy branches, dedup outcomes, re-entry reasons) is
tested through the real policy in test_labels.py; here the results are built by hand.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from groundwire import metrics
from groundwire.metrics import labels
from groundwire.metrics.registry import REGISTRY
from groundwire.topics.records import (
    CitationReport,
    Claim,
    EvidenceObject,
    GroundingReport,
    HedgeReport,
    ProvenanceReport,
    RoutedResult,
    Tier,
    ValidationResult,
)
from groundwire.topics.vocab import (
    CitationType,
    DedupOutcome,
    DlqReason,
    ProducerAuthAction,
    ProducerAuthOutcome,
    ReasonCode,
    ReentryReason,
)


def value(name: str, **labelset: str) -> float:
    return REGISTRY.get_sample_value(name, labelset) or 0.0


def routed(
    tier: Tier = Tier.AUTO_APPROVE,
    code: ReasonCode = ReasonCode.TRUSTED_SOURCE,
    *,
    reason: str = "From trusted source: user",
    verdict: str = "supported",
    hedge: HedgeReport | None = None,
    citations: list[CitationReport] | None = None,
    dedup: DedupOutcome = DedupOutcome.UNIQUE,
    duplicate_of: str | None = None,
    provenance: ProvenanceReport | None = None,
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
            reason_code=code,
            dedup=dedup,
            evidence=EvidenceObject(claim=claim.content, capture_time=now, confidence="high"),
            checks_passed=passed or [],
            checks_failed=failed or [],
        ),
        hedge=hedge or HedgeReport(),
        citations=citations or [],
        provenance=provenance or ProvenanceReport(),
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
    metrics.observe_routed(routed(Tier.BLOCK, ReasonCode.NOT_SUPPORTED, verdict="not_supported"))
    assert value("groundwire_hallucination_blocked_total") == before + 1
    # the same verdict routed to review (e.g. a lenient dev config) is not a blocked hallucination
    metrics.observe_routed(
        routed(Tier.FLAG_REVIEW, ReasonCode.CITATION_UNVERIFIED, verdict="not_supported")
    )
    assert value("groundwire_hallucination_blocked_total") == before + 1


def test_hedge_citations_and_dedup() -> None:
    b_hedge = value("groundwire_hedge_detections_total", category="personal_speculation")
    b_cit = value("groundwire_citations_total", type="adr", verified="true")
    b_unchecked = value("groundwire_citations_total", type="issue", verified="unchecked")
    b_dup = value("groundwire_dedup_results_total", result="duplicate")
    result = routed(
        Tier.BLOCK,
        ReasonCode.PERSONAL_SPECULATION,
        hedge=HedgeReport(action="block", category="personal_speculation", words=["i think"]),
        citations=[
            CitationReport(type="adr", value="ADR-0001", verified=True),
            CitationReport(type="issue", value="#1", verified=None),
        ],
        dedup=DedupOutcome.DUPLICATE,
        duplicate_of="claim-1",
    )
    metrics.observe_routed(result)
    assert (
        value("groundwire_hedge_detections_total", category="personal_speculation") == b_hedge + 1
    )
    assert value("groundwire_citations_total", type="adr", verified="true") == b_cit + 1
    assert (
        value("groundwire_citations_total", type="issue", verified="unchecked") == b_unchecked + 1
    )
    assert value("groundwire_dedup_results_total", result="duplicate") == b_dup + 1


def test_hedge_without_category_counts_under_its_action() -> None:
    before = value("groundwire_hedge_detections_total", category="technical_hedge")
    metrics.observe_routed(routed(hedge=HedgeReport(action="review")))
    assert value("groundwire_hedge_detections_total", category="technical_hedge") == before + 1


@pytest.mark.parametrize("outcome", list(DedupOutcome))
def test_dedup_outcome_is_counted_from_the_field_not_the_checks(outcome: DedupOutcome) -> None:
    before = {r: value("groundwire_dedup_results_total", result=r) for r in labels.DEDUP_RESULTS}
    # checks and reason that read like another outcome change nothing
    metrics.observe_routed(
        routed(
            reason="Dedup check failed - cannot verify uniqueness",
            dedup=outcome,
            passed=["not_duplicate"],
            failed=["duplicate_of: m1", "dedup_failed: timeout"],
        )
    )
    after = {r: value("groundwire_dedup_results_total", result=r) for r in labels.DEDUP_RESULTS}
    expected = dict(before)
    if outcome is not DedupOutcome.SKIPPED:
        expected[outcome.value] += 1
    assert after == expected


def test_reentry_rejections_come_from_the_provenance_report_only() -> None:
    before = {
        r: value("groundwire_reentry_rejections_total", reason=r) for r in labels.REENTRY_REASONS
    }
    metrics.observe_routed(
        routed(
            Tier.FLAG_REVIEW,
            ReasonCode.UNGROUNDED,
            verdict="skipped",
            provenance=ProvenanceReport(
                rejections={"chat:1": "reserved_prefix", "t9": "too_many_turns"},
                rejection_details={"chat:1": "chat:"},
            ),
            # the policy's prose about them is not read
            failed=["reentry_rejections: 7 of 9 source turns", "provenance: template_signature"],
        )
    )
    after = {
        r: value("groundwire_reentry_rejections_total", reason=r) for r in labels.REENTRY_REASONS
    }
    assert {r: after[r] - before[r] for r in after if after[r] != before[r]} == {
        "reserved_prefix": 1,
        "too_many_turns": 1,
    }


@pytest.mark.parametrize("reason", list(DlqReason))
def test_every_dlq_reason_has_its_own_series(reason: DlqReason) -> None:
    """`empty` and `invalid_screened` used to fall into `other`."""
    before = value("groundwire_dlq_records_total", reason=reason.value)
    metrics.observe_dlq(reason)
    assert value("groundwire_dlq_records_total", reason=reason.value) == before + 1
    assert REGISTRY.get_sample_value("groundwire_dlq_records_total", {"reason": "other"}) is None


def test_a_value_outside_the_vocabulary_is_refused_not_labelled() -> None:
    """Enum-typed fields cannot carry free text, so no label needs an `other` bucket; a
    plain string where a code belongs is a programming error, not a new series."""
    with pytest.raises(ValidationError):
        GroundingReport(verdict="Not supported")
    with pytest.raises(ValidationError):
        CitationReport(type="jira", value="X-1")
    with pytest.raises(ValidationError):
        HedgeReport(action="review", category="cat 1")
    with pytest.raises(ValueError):
        metrics.observe_dlq("not a reason")  # type: ignore[arg-type]


def test_label_cardinality_is_bounded_under_hostile_input() -> None:
    """Thousands of distinct free-text values must not create thousands of series."""

    def series(name: str) -> int:
        return sum(1 for family in REGISTRY.collect() for s in family.samples if s.name == name)

    for _ in range(2000):
        junk = secrets.token_hex(8)
        metrics.observe_routed(
            routed(
                reason=junk,
                hedge=HedgeReport(action="review", words=[junk]),
                citations=[CitationReport(type="url", value=junk, verified=False, reason=junk)],
                provenance=ProvenanceReport(
                    rejections={junk: "source_not_allowed"}, rejection_details={junk: junk}
                ),
                failed=[f"provenance:{junk}"],
            )
        )
        metrics.observe_stage_latency(junk, 0.001)
        metrics.observe_citation_lookups(junk, 1)
        metrics.observe_citation_cache_error(junk)

    assert series("groundwire_claims_routed_total") <= len(labels.TIERS) * len(labels.REASON_CODES)
    assert series("groundwire_grounding_verdicts_total") <= len(labels.GROUNDING_VERDICTS)
    assert series("groundwire_dlq_records_total") <= len(labels.DLQ_REASONS)
    assert series("groundwire_citations_total") <= len(labels.CITATION_TYPES) * len(
        labels.CITATION_VERIFIED
    )
    assert series("groundwire_reentry_rejections_total") <= len(labels.REENTRY_REASONS)
    assert series("groundwire_hedge_detections_total") <= len(labels.HEDGE_CATEGORIES)
    assert series("groundwire_stage_latency_seconds_count") <= len(labels.STAGES)
    assert series("groundwire_citation_lookups_total") <= 4
    assert series("groundwire_citation_cache_errors_total") <= 3


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
    metrics.observe_dlq(DlqReason.NOT_JSON)
    metrics.set_consumer_lag("gw", "groundwire.claims", 3, 42)
    metrics.set_consumer_lag("gw", "groundwire.claims", 4, -5)
    metrics.observe_grounding_latency(0.12)
    assert value("groundwire_stage_latency_seconds_count", stage="route") == b_count + 1
    assert value("groundwire_dlq_records_total", reason="not_json") == b_dlq + 1
    assert (
        value("groundwire_consumer_lag", group="gw", topic="groundwire.claims", partition="3") == 42
    )
    assert (
        value("groundwire_consumer_lag", group="gw", topic="groundwire.claims", partition="4") == 0
    )


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


UNITLESS_HISTOGRAMS = {"groundwire_faithfulness_score"}


def test_metric_names_follow_prometheus_conventions() -> None:
    for family in REGISTRY.collect():
        if not family.name.startswith("groundwire_"):
            continue
        if family.type == "counter":
            assert all(s.name.endswith(("_total", "_created")) for s in family.samples)
        if family.type == "histogram":
            # durations in seconds; the one share in [0, 1] is named as the design names it
            assert family.name.endswith("_seconds") or family.name in UNITLESS_HISTOGRAMS
        for sample in family.samples:
            assert not sample.name.endswith(("_ms", "_milliseconds"))


def test_citation_cache_counters_keep_bounded_labels() -> None:
    before = value("groundwire_citation_lookups_total", source="shared")
    metrics.observe_citation_lookups("shared", 3)
    metrics.observe_citation_lookups("bogus-source", 1)
    assert value("groundwire_citation_lookups_total", source="shared") == before + 3
    assert value("groundwire_citation_lookups_total", source="other") >= 1
    before_err = value("groundwire_citation_cache_errors_total", op="read")
    metrics.observe_citation_cache_error("read")
    assert value("groundwire_citation_cache_errors_total", op="read") == before_err + 1


def test_cached_series_count_where_labels_would_and_refuse_unknown_values() -> None:
    """The per-claim counters look their series up once (metrics/pipeline.py `_routed`):
    a member and its plain value count into the one series `labels()` names, and a value
    outside the vocabulary raises on every call and is never cached."""
    from groundwire.metrics import pipeline

    labelset = {"tier": "block", "reason": "duplicate"}
    before = value("groundwire_claims_routed_total", **labelset)
    pipeline.record_routed(Tier.BLOCK, ReasonCode.DUPLICATE)
    pipeline.record_routed("block", "duplicate")  # type: ignore[arg-type]
    assert value("groundwire_claims_routed_total", **labelset) == before + 2
    for _ in range(2):
        with pytest.raises(ValueError):
            pipeline.record_routed("block", "no such reason")  # type: ignore[arg-type]
    assert pipeline._routed.cache_info().currsize <= len(labels.TIERS) * len(labels.REASON_CODES)


def test_every_citation_and_rejection_is_counted_once_per_occurrence() -> None:
    """The screening series are cached per label set: each citation and each rejected
    turn still counts once, repeated ones as often as they occur."""
    from groundwire.topics.vocab import CitationType, ReentryReason

    cits = [
        CitationReport(type=t, value=f"{t}-{i}", verified=v)
        for t in CitationType
        for i, v in enumerate((True, False, None, True))
    ]
    reasons = list(ReentryReason)
    rejections = {f"t{i}": reasons[i % len(reasons)] for i in range(2 * len(reasons) + 1)}
    for _ in range(2):  # the second pass goes through the cached series
        b_cit = {
            (t.value, v): value("groundwire_citations_total", type=t.value, verified=v)
            for t in CitationType
            for v in labels.CITATION_VERIFIED
        }
        b_rej = {r.value: value("groundwire_reentry_rejections_total", reason=r) for r in reasons}
        metrics.observe_routed(
            routed(citations=cits, provenance=ProvenanceReport(rejections=rejections))
        )
        for (t, v), before in b_cit.items():
            want = {"true": 2, "false": 1, "unchecked": 1}[v]
            assert value("groundwire_citations_total", type=t, verified=v) == before + want
        for r, before in b_rej.items():
            want = sum(1 for why in rejections.values() if why == r)
            assert value("groundwire_reentry_rejections_total", reason=r) == before + want


def _routed_samples() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the counters a routed result feeds, by name and labels."""
    names = (
        "groundwire_claims_routed_total",
        "groundwire_hedge_detections_total",
        "groundwire_citations_total",
        "groundwire_reentry_rejections_total",
        "groundwire_grounding_verdicts_total",
        "groundwire_hallucination_blocked_total",
        "groundwire_dedup_results_total",
    )
    out: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in REGISTRY.collect():
        for sample in family.samples:
            if sample.name in names:
                out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def _mixed_batch() -> list[RoutedResult]:
    """Results that between them feed every counter, some series several times."""
    reasons = [ReentryReason.SOURCE_NOT_ALLOWED]
    return [
        routed(),
        routed(),
        routed(
            Tier.BLOCK,
            ReasonCode.NOT_SUPPORTED,
            verdict="not_supported",
            hedge=HedgeReport(action="review"),
            citations=[CitationReport(type=CitationType.COMMIT, value="abc1234", verified=True)],
            provenance=ProvenanceReport(rejections={"t1": reasons[0], "t2": reasons[0]}),
        ),
        routed(Tier.BLOCK, ReasonCode.DUPLICATE, dedup=DedupOutcome.DUPLICATE, duplicate_of="m1"),
        routed(Tier.FLAG_REVIEW, ReasonCode.UNGROUNDED, verdict="partial"),
    ]


def _increase(
    before: dict[tuple[str, tuple[tuple[str, str], ...]], float],
) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    after = _routed_samples()
    return {k: v - before.get(k, 0.0) for k, v in after.items() if v != before.get(k, 0.0)}


def test_routed_batch_counts_what_one_by_one_counts() -> None:
    """The route stage counts a batch's results with one increment per series: the counts
    must be exactly those of `observe_routed` on each result (a series hit by several
    results, or several times by one, adds them all)."""
    batch = _mixed_batch()
    before = _routed_samples()
    for result in batch:
        metrics.observe_routed(result)
    one_by_one = _increase(before)

    before = _routed_samples()
    metrics.observe_routed_batch(batch)
    batched = _increase(before)

    assert batched == one_by_one
    routed_key = (
        "groundwire_claims_routed_total",
        (("reason", "trusted_source"), ("tier", "auto_approve")),
    )
    assert batched[routed_key] == 2
    # one result with two rejected turns of one reason: two, not one
    rejected = ("groundwire_reentry_rejections_total", (("reason", "source_not_allowed"),))
    assert batched[rejected] == 2


def test_routed_batch_of_nothing_counts_nothing() -> None:
    before = _routed_samples()
    metrics.observe_routed_batch([])
    assert _increase(before) == {}


def test_producer_auth_batch_counts_each_pair() -> None:
    seen = [
        (ProducerAuthOutcome.UNSIGNED, ProducerAuthAction.KEPT),
        (ProducerAuthOutcome.UNSIGNED, ProducerAuthAction.KEPT),
        (ProducerAuthOutcome.VERIFIED, ProducerAuthAction.KEPT),
    ]

    def count(outcome: ProducerAuthOutcome, action: ProducerAuthAction) -> float:
        return value("groundwire_producer_auth_total", outcome=outcome.value, action=action.value)

    before = {pair: count(*pair) for pair in set(seen)}
    metrics.observe_producer_auth_batch(seen)
    assert count(*seen[0]) == before[seen[0]] + 2
    assert count(*seen[2]) == before[seen[2]] + 1
    metrics.observe_producer_auth_batch([])  # nothing seen: nothing counted
    assert count(*seen[0]) == before[seen[0]] + 2
