"""Re-entry guard (seed 004): which source turns may ground a claim."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from groundwire.guards.config import ProvenanceConfig
from groundwire.guards.provenance import check_provenance, eligible_turns
from groundwire.topics.records import Claim

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


def test_seed_004_minimal_case() -> None:
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


@pytest.mark.parametrize(
    ("turn", "reason"),
    [
        ({"id": "n1", "source": "model", "text": "fact"}, "source_not_allowed:model"),
        ({"id": "n1", "source": "system", "text": "fact"}, "source_not_allowed:system"),
        ({"id": "draft:9", "source": "corpus", "text": "fact"}, "reserved_prefix:draft:"),
        ({"id": "TMP:9", "source": "corpus", "text": "fact"}, "reserved_prefix:tmp:"),
        ({"id": "gen:1", "source": "user", "text": "fact"}, "reserved_prefix:gen:"),
        ({"id": "assistant:1", "source": "user", "text": "fact"}, "reserved_prefix:assistant:"),
        (
            {"id": "d1", "source": "corpus", "text": "X rejects nulls. citations: [p1]"},
            "template_signature",
        ),
        (
            {"id": "d2", "source": "documentation", "text": "<|im_start|>assistant hi"},
            "template_signature",
        ),
        (
            {"id": "d3", "source": "corpus", "text": "As an AI language model, I"},
            "template_signature",
        ),
        (
            {
                "id": "d4",
                "source": "corpus",
                "text": "fact",
                "created_at": T0 + timedelta(minutes=5),
            },
            "created_after_claim",
        ),
    ],
)
def test_each_rule_rejects(turn: dict, reason: str) -> None:
    report = check_provenance(_claim(turn), ProvenanceConfig())
    assert report.eligible_turn_ids == []
    assert report.rejections == {turn["id"]: reason}


@pytest.mark.parametrize("source", ["corpus", "user", "documentation", "Corpus"])
def test_allowed_sources_pass(source: str) -> None:
    turn = {"id": "k1", "source": source, "text": "The API rejects null keys.", "created_at": T0}
    assert check_provenance(_claim(turn), ProvenanceConfig()).eligible_turn_ids == ["k1"]


def test_naive_timestamps_and_claim_without_created_at() -> None:
    naive_later = {"id": "k", "source": "corpus", "text": "t", "created_at": "2026-04-01T12:30:00"}
    assert check_provenance(_claim(naive_later), ProvenanceConfig()).rejections == {
        "k": "created_after_claim"
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
