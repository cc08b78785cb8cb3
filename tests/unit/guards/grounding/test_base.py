"""Shared grounding logic: skip rule, penalties, span pinning, blocking rule, factory."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import pytest

from groundwire.guards.config import GroundingConfig, GuardsConfig
from groundwire.guards.grounder import skip_reason
from groundwire.guards.grounding import build_verifier
from groundwire.guards.grounding.base import (
    finish_report,
    grounding_blocks,
    locate_span,
    penalty_for,
    verify_batch_safely,
)
from groundwire.guards.grounding.lexical import LexicalVerifier
from groundwire.guards.protocols import GroundingRequest, GroundingVerifier
from groundwire.guards.screening import screen
from groundwire.topics.records import Claim, GroundingReport, SourceTurn
from groundwire.topics.vocab import GroundingVerdict

TURNS = [
    SourceTurn(id="a", text="We moved the API to Go.", source="corpus"),
    SourceTurn(id="b", text="Ship it Friday", source="corpus"),
]


def claim(**kw: object) -> Claim:
    base: dict[str, object] = {
        "claim_id": "c",
        "tenant_id": "t",
        "content": "API moved to Go",
        "source": "chat",
        "source_turns": TURNS,
    }
    return Claim(**(base | kw))  # type: ignore[arg-type]


def test_skip_rule() -> None:
    cfg = GuardsConfig()

    def reason(c: Claim, cfg: GuardsConfig = cfg) -> str | None:
        return skip_reason(screen(c, cfg), cfg, has_verifier=True)

    assert reason(claim()) is None
    assert reason(claim(memory_type="entity")) is not None  # the default skip type
    assert reason(claim(memory_type="preference")) is None  # preferences are grounded
    assert reason(claim(source_turns=[])) == "no source turns"
    off = GuardsConfig(grounding=GroundingConfig(enabled=False))
    assert reason(claim(), off) == "grounding disabled"
    every_type = GuardsConfig(grounding=GroundingConfig(skip_for_types=[]))
    assert reason(claim(memory_type="entity"), every_type) is None
    no_preferences = GuardsConfig(grounding=GroundingConfig(skip_for_types=["preference"]))
    assert reason(claim(memory_type="preference"), no_preferences) is not None
    assert skip_reason(screen(claim(), cfg), cfg, has_verifier=False) is not None
    # turns that all fail provenance are judged (not supported), never skipped
    model_turns = [SourceTurn(id="m", text="We moved the API to Go.", source="model")]
    assert reason(claim(source_turns=model_turns)) is None


def test_penalty_range_and_direction() -> None:
    cfg = GroundingConfig()
    assert penalty_for(0.69, 0.4, 0.7, cfg) == pytest.approx(0.1, abs=0.01)
    assert penalty_for(0.40, 0.4, 0.7, cfg) == pytest.approx(0.3)
    mid = penalty_for(0.55, 0.4, 0.7, cfg)
    assert 0.1 < mid < 0.3
    assert penalty_for(0.0, 0.4, 0.7, cfg) == pytest.approx(0.3)  # clamped


def test_finish_report_adjusts_confidence_by_verdict() -> None:
    c = claim(confidence=0.8)
    partial = finish_report(
        c, GroundingVerdict.PARTIAL, verifier="x", score=0.5, spans=[], reasoning="", penalty=0.2
    )
    assert partial.adjusted_confidence == pytest.approx(0.6)
    supported = finish_report(
        c, GroundingVerdict.SUPPORTED, verifier="x", score=0.9, spans=[], reasoning="", penalty=0.2
    )
    assert supported.confidence_penalty == 0 and supported.adjusted_confidence == 0.8
    blocked = finish_report(
        c, GroundingVerdict.NOT_SUPPORTED, verifier="x", score=0.1, spans=[], reasoning=""
    )
    assert blocked.adjusted_confidence == 0.0


@pytest.mark.parametrize(
    ("verdict", "adjusted", "failure", "blocks"),
    [
        ("supported", 0.9, "queue", False),
        ("partial", 0.31, "queue", False),
        ("partial", 0.29, "queue", True),
        ("not_supported", 0.0, "queue", True),
        ("unknown", 0.9, "queue", False),
        ("unknown", 0.9, "block", True),
        ("skipped", None, "block", False),
    ],
)
def test_grounding_blocks(verdict: str, adjusted: float | None, failure: str, blocks: bool) -> None:
    cfg = GroundingConfig(on_verifier_failure=failure)  # type: ignore[arg-type]
    report = GroundingReport(verdict=verdict, adjusted_confidence=adjusted)
    assert grounding_blocks(report, cfg) is blocks


def test_locate_span_exact_and_case_insensitive() -> None:
    span = locate_span(TURNS, "moved the API")
    assert span is not None and (span.turn_id, span.start, span.end) == ("a", 3, 16)
    span = locate_span(TURNS, "ship it friday")
    assert span is not None and span.text == "Ship it Friday" and span.turn_id == "b"
    assert locate_span(TURNS, "moved the API to Rust") is None
    assert locate_span(TURNS, " ") is None


def test_factory() -> None:
    assert isinstance(build_verifier(GroundingConfig()), LexicalVerifier)
    with pytest.raises(ValueError):
        build_verifier(GroundingConfig(verifier="llm"))
    llm = build_verifier(
        GroundingConfig(verifier="llm", llm_base_url="http://127.0.0.1:1/v1", llm_model="m")
    )
    assert llm.name == "llm" and isinstance(llm, GroundingVerifier)


def test_embedding_falls_back_to_lexical_when_model_missing(
    caplog: pytest.LogCaptureFixture, tmp_path: object
) -> None:
    from pathlib import Path

    missing = Path(str(tmp_path)) / "absent.onnx"
    with caplog.at_level(logging.WARNING):
        verifier = build_verifier(
            GroundingConfig(verifier="embedding", embedding_model_path=missing)
        )
    assert verifier.name == "lexical"
    assert "embedding verifier unavailable" in caplog.text


class Exploding:
    name = "boom"

    async def verify_batch(self, batch: Sequence[GroundingRequest]) -> list[GroundingReport]:
        raise RuntimeError("bug")


class Short:
    name = "short"

    async def verify_batch(self, batch: Sequence[GroundingRequest]) -> list[GroundingReport]:
        return []


@pytest.mark.parametrize("verifier", [Exploding(), Short()])
async def test_verify_batch_safely_turns_failures_into_unknown(verifier: object) -> None:
    c = claim(confidence=0.7)
    reports = await verify_batch_safely(verifier, [GroundingRequest(c, TURNS)] * 2)  # type: ignore[arg-type]
    assert [r.verdict for r in reports] == [GroundingVerdict.UNKNOWN] * 2
    assert reports[0].adjusted_confidence == 0.7


def test_every_configurable_verifier_is_registered_and_only_those() -> None:
    from typing import get_args

    from groundwire.guards.config import GroundingVerifierName
    from groundwire.guards.grounding import VERIFIERS

    names = get_args(GroundingVerifierName)
    assert set(names) == set(VERIFIERS)
    # the setting takes one name or a list of them (an ensemble)
    annotation = GroundingConfig.model_fields["verifier"].annotation
    assert set(get_args(annotation)) == {GroundingVerifierName, list[GroundingVerifierName]}
