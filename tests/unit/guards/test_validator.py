"""The in-process Validator: batch order, fail-closed paths, the RoutedResult it fills."""

from __future__ import annotations

import asyncio

import pytest

from groundwire.guards.config import GuardsConfig
from groundwire.guards.grounder import Grounder
from groundwire.guards.protocols import DedupResult
from groundwire.guards.screening import screen, screen_batch
from groundwire.guards.testing import ExactDedup, ScriptedVerifier, substring_verifier
from groundwire.guards.validator import Validator
from groundwire.topics.records import Claim, GroundingReport, Tier

TURNS = [{"id": "k1", "source": "corpus", "text": "The API returns JSON for REST responses."}]


def _claim(cid: str, content: str, **kw: object) -> Claim:
    return Claim(
        claim_id=cid,
        tenant_id=str(kw.pop("tenant", "acme")),
        content=content,
        source=kw.pop("source", "ai_synthesis"),
        **kw,
    )  # type: ignore[arg-type]


def _validate(validator: Validator, *claims: Claim):  # type: ignore[no-untyped-def]
    return asyncio.run(validator.validate_batch(list(claims)))


def test_one_dedup_call_per_batch_and_blocked_claims_not_inserted() -> None:
    dedup = ExactDedup()
    v = Validator(GuardsConfig(), dedup, ScriptedVerifier(default=substring_verifier))
    results = _validate(
        v,
        _claim("a", "I think the API returns XML"),
        _claim("b", "The API returns JSON for REST responses", source_turns=TURNS),
        _claim("c", "The API returns YAML", source_turns=TURNS),  # not supported -> block
        _claim("d", "Jobs run nightly"),
    )
    assert len(dedup.calls) == 1
    # approved -> a memory; review -> a pending entry; blocked -> looked up only
    assert [(r.claim_id, r.insert, r.pending) for r in dedup.calls[0]] == [
        ("a", False, False),
        ("b", True, False),
        ("c", False, False),
        ("d", True, True),
    ]
    assert [r.validation.tier for r in results] == [
        Tier.BLOCK,
        Tier.AUTO_APPROVE,
        Tier.BLOCK,
        Tier.FLAG_REVIEW,
    ]


def test_blocked_claim_never_becomes_the_original() -> None:
    dedup = ExactDedup()
    v = Validator(GuardsConfig(), dedup, None)
    _validate(v, _claim("a", "I think we use Kafka"))
    (later,) = _validate(v, _claim("b", "I think we use Kafka", source="user"))
    assert later.duplicate_of is None  # blocked for speculation, not as a duplicate of a


def test_duplicates_within_one_batch() -> None:
    v = Validator(GuardsConfig(), ExactDedup(), None)
    first, second = _validate(
        v,
        _claim("a", "OAuth2 is required", source="documentation"),
        _claim("b", "OAuth2 is required", source="documentation"),
    )
    assert first.validation.tier is Tier.AUTO_APPROVE
    assert (second.validation.tier, second.duplicate_of) == (Tier.BLOCK, "a")


def test_dedup_failure_fails_closed() -> None:
    v = Validator(GuardsConfig(), ExactDedup(fail=True), None)
    (r,) = _validate(v, _claim("a", "OAuth2 is required", source="documentation"))
    assert r.validation.tier is Tier.FLAG_REVIEW and "dedup_failed" in r.tags
    assert any(f.startswith("dedup_failed: ConnectionError") for f in r.validation.checks_failed)


@pytest.mark.parametrize(
    ("mode", "source", "expected"),
    [
        ("queue", "user", Tier.FLAG_REVIEW),
        ("block", "user", Tier.BLOCK),
        ("allow_with_flag", "user", Tier.AUTO_APPROVE),
        ("allow_with_flag", "ai_synthesis", Tier.FLAG_REVIEW),
    ],
)
def test_verifier_failure_per_config(mode: str, source: str, expected: Tier) -> None:
    cfg = GuardsConfig()
    cfg.grounding.on_verifier_failure = mode  # type: ignore[assignment]
    v = Validator(cfg, None, ScriptedVerifier(fail=True))
    (r,) = _validate(v, _claim("a", "The API returns JSON", source=source, source_turns=TURNS))
    assert r.grounding.verdict == "unknown" and "grounding_unknown" in r.tags
    assert r.validation.tier is expected


def test_skipped_grounding_falls_through() -> None:
    verifier = ScriptedVerifier(default=substring_verifier)
    v = Validator(GuardsConfig(), None, verifier)
    pref = _claim("p", "Tabs only", memory_type="entity", source="user", source_turns=TURNS)
    no_turns = _claim("n", "Prefers tabs", source="user")
    r1, r2 = _validate(v, pref, no_turns)
    assert verifier.seen == []
    assert (r1.grounding.verdict, r2.grounding.verdict) == ("skipped", "skipped")
    assert r1.validation.tier is r2.validation.tier is Tier.AUTO_APPROVE
    cfg = GuardsConfig()
    cfg.grounding.enabled = False
    (r3,) = _validate(Validator(cfg, None, verifier), _claim("x", "Jobs run", source_turns=TURNS))
    assert r3.grounding.verdict == "skipped" and verifier.seen == []


def test_routed_result_is_filled() -> None:
    report = GroundingReport(verdict="supported", score=0.9, verifier="scripted")
    v = Validator(GuardsConfig(), ExactDedup(), ScriptedVerifier({"a": report}))
    (r,) = asyncio.run(
        v.validate_batch([_claim("a", "The API returns JSON", source_turns=TURNS)], worker="w1")
    )
    assert r.worker == "w1" and r.grounding.score == 0.9
    assert {"hedge", "citations_detect", "provenance", "grounding", "dedup", "policy"} <= set(
        r.timings_ms
    )
    assert r.validation.evidence.confidence == "high"
    assert "provenance_ok" in r.validation.checks_passed


def test_screen_sync_and_batch_agree() -> None:
    cfg = GuardsConfig()
    claims = [_claim("a", "I think ADR-4 says #12"), _claim("b", "The pool may shrink")]
    batch = asyncio.run(screen_batch(claims, cfg))
    for c, s in zip(claims, batch, strict=True):
        one = screen(c, cfg)
        assert (one.hedge, one.citations, one.provenance) == (s.hedge, s.citations, s.provenance)
    assert [c.value for c in batch[0].citations] == ["ADR-4", "#12"]


def test_through_the_real_offline_verifier() -> None:
    grounding = pytest.importorskip("groundwire.guards.grounding")
    cfg = GuardsConfig()
    v = Validator(cfg, None, grounding.build_verifier(cfg.grounding))
    turns = [
        {
            "id": "turn-1",
            "source": "corpus",
            "text": "Let's schedule the meeting for next Tuesday.",
        },
        {
            "id": "turn-2",
            "source": "corpus",
            "text": "I'll be joining from my home office in Bangalore.",
        },
    ]
    fabricated, grounded = _validate(
        v,
        _claim("g1", "Georgian works as a software developer at Google", source_turns=turns),
        _claim(
            "g2", "The user will be joining from a home office in Bangalore", source_turns=turns
        ),
    )
    assert fabricated.grounding.verdict == "not_supported"
    assert fabricated.validation.tier is Tier.BLOCK
    assert grounded.validation.tier is not Tier.BLOCK


def test_grounding_done_in_the_screen_stage_is_reused_and_the_rest_grounded_here() -> None:
    """grounding_stage=screen: the route stage must not ground again what the screened
    record already carries, and must ground a record that arrives without a report."""
    cfg = GuardsConfig()
    screener = Grounder(cfg, ScriptedVerifier(default=substring_verifier))
    claims = [
        _claim("b", "The API returns JSON for REST responses", source_turns=TURNS),
        _claim("c", "The API returns YAML", source_turns=TURNS),
    ]
    screened = asyncio.run(screen_batch(claims, cfg))
    for item, report in zip(screened, asyncio.run(screener.ground(screened)), strict=True):
        item.grounding = report
    # a verifier that disagrees with everything: if the route stage re-grounded, tiers flip
    contrary = ScriptedVerifier(default=lambda _req: GroundingReport(verdict="not_supported"))
    router = Validator(cfg, ExactDedup(), contrary)
    results = asyncio.run(router.decide_batch(screened))
    assert contrary.seen == []
    assert [r.validation.tier for r in results] == [Tier.AUTO_APPROVE, Tier.BLOCK]
    assert [r.grounding.verdict for r in results] == ["supported", "not_supported"]
    # mixed batch (e.g. during a rolling upgrade): only the record without a report is grounded
    screened[1].grounding = None
    results = asyncio.run(router.decide_batch(screened))
    assert [req.claim.claim_id for req in contrary.seen] == ["c"]
    assert results[0].validation.tier is Tier.AUTO_APPROVE


def test_the_screened_record_carries_the_grounding_report_over_the_wire() -> None:
    cfg = GuardsConfig()
    (item,) = asyncio.run(
        screen_batch([_claim("b", "The API returns JSON", source_turns=TURNS)], cfg)
    )
    item.grounding = GroundingReport(verdict="supported", score=0.9, verifier="lexical")
    again = type(item).model_validate_json(item.model_dump_json())
    assert again.grounding == item.grounding


def test_only_approved_memories_are_memories() -> None:
    """A claim queued for review is not a memory: the same text from a trusted source is
    not its duplicate; it is tagged with the pending claim's id and follows its own tier.
    Once a person approves the first claim (`admit`), it is a memory like any other."""
    from groundwire.guards.config import DedupConfig
    from groundwire.guards.dedup import build_dedup_index

    v = Validator(GuardsConfig(), build_dedup_index(DedupConfig()), None)
    text = "The billing service uses PostgreSQL 15"
    (pending,) = _validate(v, _claim("rv-1", text))
    assert pending.validation.tier is Tier.FLAG_REVIEW
    assert pending.pending_duplicate_of is None
    (doc,) = _validate(v, _claim("doc-1", text, source="documentation"))
    assert doc.validation.tier is not Tier.BLOCK
    assert doc.duplicate_of is None and doc.validation.dedup == "unique"
    assert doc.pending_duplicate_of == "rv-1" and "near_duplicate_of_pending" in doc.tags
    assert "near_duplicate_of_pending: rv-1 similarity=1.000" in doc.validation.checks_failed
    # doc-1 was approved, so it is a memory: the next copy is its duplicate
    (copy,) = _validate(v, _claim("rv-2", text + "."))
    assert (copy.validation.tier, copy.duplicate_of) == (Tier.BLOCK, "doc-1")

    fresh = Validator(GuardsConfig(), build_dedup_index(DedupConfig()), None)
    (first,) = _validate(fresh, _claim("rv-1", text))
    assert asyncio.run(fresh.admit(first.claim)).is_duplicate is False
    (later,) = _validate(fresh, _claim("c2", text, source="documentation"))
    assert (later.validation.tier, later.duplicate_of) == (Tier.BLOCK, "rv-1")
    # admitting a claim that a memory now duplicates says so and indexes nothing
    (third,) = _validate(fresh, _claim("rv-3", "Invoices are stored for ten years"))
    (approved,) = _validate(
        fresh, _claim("d3", "Invoices are stored for ten years", source="documentation")
    )
    assert approved.pending_duplicate_of == "rv-3"
    outcome = asyncio.run(fresh.admit(third.claim))
    assert outcome.is_duplicate and outcome.duplicate_of == "d3"


def test_a_memory_negated_or_renumbered_is_reviewed_not_blocked_or_approved() -> None:
    """A near-copy of a memory that says the opposite, or another number, is no duplicate
    to block (it may be the correction) nor a claim to approve beside it unseen: review."""
    from groundwire.guards.config import DedupConfig
    from groundwire.guards.dedup import build_dedup_index

    v = Validator(GuardsConfig(), build_dedup_index(DedupConfig()), None)
    stated = "The billing service is encrypted at rest with keys rotated by the platform team"
    (memory,) = _validate(v, _claim("m1", stated, source="documentation"))
    assert memory.validation.tier is Tier.AUTO_APPROVE
    denied = stated.replace(" is ", " is not ")
    (variant,) = _validate(v, _claim("c1", denied, source="documentation"))
    assert variant.validation.tier is Tier.FLAG_REVIEW
    assert variant.validation.reason_code == "variant_of_memory"
    assert variant.validation.dedup == "variant" and variant.duplicate_of is None
    assert variant.validation.conflicting_memory_id == "m1"
    assert "variant_of_memory" in variant.tags
    assert "variant_of_memory: m1 similarity=0.929" in variant.validation.checks_failed
    # the same text again is a copy of the memory: blocked as before
    (copy,) = _validate(v, _claim("c2", stated + ".", source="documentation"))
    assert (copy.validation.tier, copy.duplicate_of) == (Tier.BLOCK, "m1")


def test_dedup_scope_per_user() -> None:
    from groundwire.guards.config import DedupConfig
    from groundwire.guards.dedup import build_dedup_index

    cfg = GuardsConfig(dedup=DedupConfig(scope="user"))
    v = Validator(cfg, build_dedup_index(cfg.dedup), None)
    text = "Prefers dark mode in every editor"
    a, b, a2 = _validate(
        v,
        _claim("a", text, source="chat", memory_type="preference", user_id="alice"),
        _claim("b", text, source="chat", memory_type="preference", user_id="bob"),
        _claim("a2", text, source="chat", memory_type="preference", user_id="alice"),
    )
    assert [r.duplicate_of for r in (a, b, a2)] == [None, None, "a"]


@pytest.mark.parametrize("fail", [False, True])
def test_each_decision_is_the_policys_on_the_final_dedup_result(fail: bool) -> None:
    """decide_batch reuses its provisional (pre-dedup) decision when the dedup result
    comes back as assumed; every claim must still get exactly what `determine_tier`
    gives for its final result: unique, duplicate, pending match, failed, unconfirmed id."""
    from dataclasses import replace

    from groundwire.guards.policy import determine_tier
    from groundwire.guards.validator import _UNKNOWN

    dedup = ExactDedup(fail=fail)
    dedup.seed("acme", "old", "The API returns JSON for REST responses")
    cfg = GuardsConfig()
    v = Validator(cfg, dedup, ScriptedVerifier(default=substring_verifier))
    claims = [
        _claim("a", "The API returns JSON for REST responses", source_turns=TURNS),  # dup
        _claim("b", "Jobs run nightly"),  # review -> pending
        _claim("c", "Jobs run nightly"),  # near-duplicate of the pending "b"
        _claim("d", "I think the API returns XML"),  # blocked, looked up only
        _claim("e", "The API returns JSON", source_turns=TURNS),  # unique, approved
        _claim("f", "Builds run hourly"),  # unique, its id unconfirmed
        _claim("g", "The API returns JSON for REST responses", source_turns=TURNS),  # dup, id
    ]
    screened = asyncio.run(screen_batch(claims, cfg))
    unknown = [False, False, False, False, False, True, True]
    results = asyncio.run(v.decide_batch(screened, uniqueness_unknown=unknown))
    for s, r, unsure in zip(screened, results, unknown, strict=True):
        g = r.grounding
        if r.duplicate_of is not None:
            d = DedupResult(True, r.duplicate_of, r.similarity)
        elif fail:
            d = DedupResult(False, failed=True, error="ConnectionError")
        else:
            d = DedupResult(
                False, pending_of=r.pending_duplicate_of, pending_similarity=r.similarity
            )
        if unsure and not d.is_duplicate:
            d = replace(_UNKNOWN, pending_of=d.pending_of)
        want = determine_tier(s, grounding=g, dedup=d, cfg=cfg)
        got = r.validation
        assert (got.tier, got.reason, got.reason_code, got.dedup) == (
            want.tier,
            want.reason,
            want.reason_code,
            want.dedup,
        ), s.claim.claim_id
        assert got.checks_passed[: len(want.checks_passed)] == want.checks_passed
        assert got.checks_failed[: len(want.checks_failed)] == want.checks_failed
        assert r.tags[: len(want.tags)] == want.tags
    tiers = [r.validation.tier for r in results]
    if not fail:
        assert tiers[0] is Tier.BLOCK and results[0].duplicate_of == "old"
        assert results[2].pending_duplicate_of == "b"
        assert tiers[5] is Tier.FLAG_REVIEW and results[5].validation.dedup == "failed"
        assert results[6].duplicate_of == "old"
