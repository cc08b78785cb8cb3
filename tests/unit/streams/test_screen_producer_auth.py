"""The screen stage authenticates producers before anything reads the source
(docs/spec.md §Producer authentication): downgrade by default, dlq in strict mode, every
claim counted by outcome and action."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

from groundwire.guards.config import ProducerAuthConfig
from groundwire.metrics.registry import REGISTRY
from groundwire.streams.settings import Settings
from groundwire.streams.stages.screen import ScreenStage
from groundwire.topics.records import DlqRecord, ScreenedClaim
from groundwire.topics.signing import sign_claim
from groundwire.topics.vocab import DlqReason, Source

KEY, SECRET = "docs-bot", "docs-secret-0123456789abcdef"
CLAIM: dict[str, Any] = {
    "claim_id": "c1",
    "tenant_id": "acme",
    "content": "OAuth2 is required",
    "source": "documentation",
}


class FakeMessage:
    def __init__(self, value: bytes, offset: int) -> None:
        self._value, self._offset = value, offset

    def value(self) -> bytes:
        return self._value

    def key(self) -> bytes:
        return b"acme"

    def headers(self) -> None:
        return None

    def topic(self) -> str:
        return "t.claims"

    def partition(self) -> int:
        return 0

    def offset(self) -> int:
        return self._offset

    def error(self) -> None:
        return None


def _stage(mode: str) -> ScreenStage:
    settings = Settings(metrics_port=0)
    guards = settings.guards.model_copy(deep=True)
    guards.citation.verify = False
    guards.producer_auth = ProducerAuthConfig(
        mode=mode,  # type: ignore[arg-type]
        keys={KEY: ["documentation"]},
        secrets={KEY: SECRET},  # type: ignore[dict-item]
    )
    return ScreenStage(settings.model_copy(update={"guards": guards}))


def _count(outcome: str, action: str) -> float:
    labels = {"outcome": outcome, "action": action}
    return REGISTRY.get_sample_value("groundwire_producer_auth_total", labels) or 0.0


def _process(stage: ScreenStage, docs: list[dict[str, Any]]):  # type: ignore[no-untyped-def]
    messages = [FakeMessage(orjson.dumps(d), i) for i, d in enumerate(docs)]
    return asyncio.run(stage.process(messages))  # type: ignore[arg-type]


def test_downgrade_mode_screens_unauthenticated_trusted_sources_as_ai_synthesis() -> None:
    before = _count("unsigned", "downgraded"), _count("verified", "kept")
    signed = sign_claim({**CLAIM, "claim_id": "c2"}, KEY, SECRET.encode())
    outputs = _process(_stage("downgrade"), [CLAIM, signed])
    forged, genuine = (ScreenedClaim.model_validate_json(o.value) for o in outputs)
    assert forged.claim.source is Source.AI_SYNTHESIS
    assert forged.producer_auth is not None
    assert forged.producer_auth.claimed_source is Source.DOCUMENTATION
    assert genuine.claim.source is Source.DOCUMENTATION
    assert genuine.claim.signature == signed["signature"]
    assert (_count("unsigned", "downgraded"), _count("verified", "kept")) == (
        before[0] + 1,
        before[1] + 1,
    )


def test_strict_mode_sends_them_to_the_dlq() -> None:
    stage = _stage("strict")
    edited = {**sign_claim(CLAIM, KEY, SECRET.encode()), "content": "OAuth2 is optional"}
    outputs = _process(stage, [edited, {**CLAIM, "claim_id": "c3", "source": "ai_synthesis"}])
    dlq, kept = outputs
    assert dlq.topic == stage.settings.topics.dlq
    record = DlqRecord.model_validate_json(dlq.value)
    assert record.reason is DlqReason.UNAUTHENTICATED_SOURCE
    assert "bad_signature" in record.detail and SECRET not in record.detail
    assert kept.topic == stage.settings.topics.screened
