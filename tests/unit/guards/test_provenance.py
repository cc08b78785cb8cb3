"""Re-entry guard (docs/spec.md §Provenance and re-entry): which source turns may ground a
claim."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from groundwire.guards.config import ProvenanceConfig
from groundwire.guards.provenance import check_provenance, eligible_turns
from groundwire.topics.records import Claim
from groundwire.topics.vocab import ReentryReason

T0 = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)


def _claim(*turns: dict, created_at: datetime | None = T0) -> Claim:
    return Claim(
        claim_id="c1",
        tenant_id="t",
        content="X supports null keys",
        source="ai_synthesis",
        source_turns=list(turns),
        created_at=created_at,
    )


def test_spec_example_model_answer_is_rejected() -> None:
    claim = _claim(
        {"id": "p1#1", "source": "corpus", "text": "X is a constrained mapping."},
        {
            "id": "chat:42",
            "source": "model",
            "text": "(assistant) X supports null keys. citations: [p1#1]",
        },
    )
    report = check_provenance(claim, ProvenanceConfig())
    assert report.eligible_turn_ids == ["p1#1"]
    assert set(report.rejections) == {"chat:42"}
    assert [t.id for t in eligible_turns(claim, report)] == ["p1#1"]


NOT_ALLOWED = ReentryReason.SOURCE_NOT_ALLOWED
PREFIX = ReentryReason.RESERVED_PREFIX
SIGNATURE = ReentryReason.TEMPLATE_SIGNATURE


@pytest.mark.parametrize(
    ("turn", "reason", "detail"),
    [
        ({"id": "n1", "source": "model", "text": "fact"}, NOT_ALLOWED, "model"),
        ({"id": "n1", "source": "system", "text": "fact"}, NOT_ALLOWED, "system"),
        ({"id": "n1", "source": "m" * 40, "text": "fact"}, NOT_ALLOWED, "m" * 32),
        ({"id": "draft:9", "source": "corpus", "text": "fact"}, PREFIX, "draft:"),
        ({"id": "TMP:9", "source": "corpus", "text": "fact"}, PREFIX, "tmp:"),
        ({"id": "gen:1", "source": "user", "text": "fact"}, PREFIX, "gen:"),
        ({"id": "assistant:1", "source": "user", "text": "fact"}, PREFIX, "assistant:"),
        (
            {"id": "d1", "source": "corpus", "text": "X rejects nulls. citations: [p1]"},
            SIGNATURE,
            None,
        ),
        (
            {"id": "d2", "source": "documentation", "text": "<|im_start|>assistant hi"},
            SIGNATURE,
            None,
        ),
        (
            {"id": "d3", "source": "corpus", "text": "As an AI language model, I"},
            SIGNATURE,
            None,
        ),
        (
            {
                "id": "d4",
                "source": "corpus",
                "text": "fact",
                "created_at": T0 + timedelta(minutes=5),
            },
            ReentryReason.CREATED_AFTER_CLAIM,
            None,
        ),
    ],
)
def test_each_rule_rejects(turn: dict, reason: ReentryReason, detail: str | None) -> None:
    """The code is the reason alone; what matched (tag, prefix) is a separate detail."""
    report = check_provenance(_claim(turn), ProvenanceConfig())
    assert report.eligible_turn_ids == []
    assert report.rejections == {turn["id"]: reason}
    assert report.rejection_details == ({turn["id"]: detail} if detail else {})


def test_turns_beyond_the_limit_are_rejected_as_too_many() -> None:
    from groundwire.guards.provenance import MAX_TURNS

    turns = [{"id": f"k{i}", "source": "corpus", "text": "t"} for i in range(MAX_TURNS + 2)]
    report = check_provenance(_claim(*turns), ProvenanceConfig())
    assert len(report.eligible_turn_ids) == MAX_TURNS
    assert set(report.rejections.values()) == {ReentryReason.TOO_MANY_TURNS}
    assert report.rejection_details == {}


def test_without_the_private_regex_parser_every_signature_still_runs(monkeypatch) -> None:
    """`re._parser` is CPython-private; if it moves, the prefilter is off, verdicts stay."""
    import re
    import sys

    from groundwire.guards import provenance

    monkeypatch.delattr(re, "_parser")
    monkeypatch.setitem(sys.modules, "re._parser", None)  # the import now fails
    monkeypatch.setattr(provenance, "_rules_by_cfg", {})
    assert provenance._required_literal(r"citations\s*:", re.MULTILINE) == ""
    provenance._compile.cache_clear()
    try:
        turn = {"id": "d1", "source": "corpus", "text": "X rejects nulls. citations: [p1]"}
        report = check_provenance(_claim(turn), ProvenanceConfig())
        assert report.rejections == {"d1": SIGNATURE}
    finally:
        provenance._compile.cache_clear()


@pytest.mark.parametrize("source", ["corpus", "user", "documentation", "Corpus"])
def test_allowed_sources_pass(source: str) -> None:
    turn = {"id": "k1", "source": source, "text": "The API rejects null keys.", "created_at": T0}
    assert check_provenance(_claim(turn), ProvenanceConfig()).eligible_turn_ids == ["k1"]


def test_naive_timestamps_and_claim_without_created_at() -> None:
    naive_later = {"id": "k", "source": "corpus", "text": "t", "created_at": "2026-04-01T12:30:00"}
    assert check_provenance(_claim(naive_later), ProvenanceConfig()).rejections == {
        "k": ReentryReason.CREATED_AFTER_CLAIM
    }
    claim = _claim(naive_later, created_at=None)
    now = datetime(2026, 4, 2, tzinfo=UTC)
    assert check_provenance(claim, ProvenanceConfig(), now=now).eligible_turn_ids == ["k"]


def test_config_can_opt_in() -> None:
    turn = {"id": "chat:7", "source": "model", "text": "summary"}
    cfg = ProvenanceConfig(allowed_sources=["model"], reserved_prefixes=[])
    assert check_provenance(_claim(turn), cfg).eligible_turn_ids == ["chat:7"]


def test_rejected_id_never_passes_even_if_repeated() -> None:
    claim = _claim(
        {"id": "k", "source": "corpus", "text": "ok"},
        {"id": "k", "source": "model", "text": "model text"},
    )
    report = check_provenance(claim, ProvenanceConfig())
    assert eligible_turns(claim, report) == []
