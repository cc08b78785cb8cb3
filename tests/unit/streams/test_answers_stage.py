"""The answers stage (streams/stages/answers.py): each readable answer becomes one record
on answers.scored and one on audit; unreadable ones go to the dlq with a reason. And the
stage is opt-in: not in the default stage list, accepted when named."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from groundwire.guards.faithfulness.score import AnswerScorer
from groundwire.streams.answers.factory import answer_limits, build_answer_scorer
from groundwire.streams.settings import Settings
from groundwire.streams.stages import ALL_STAGES, OPT_IN_STAGES, STAGES
from groundwire.streams.stages.answers import AnswersStage
from groundwire.topics.answers import ScoredAnswer
from groundwire.topics.records import DlqRecord
from groundwire.topics.vocab import DlqReason, RiskLevel

ANSWER: dict[str, Any] = {
    "answer_id": "a1",
    "tenant_id": "acme",
    "text": "Inbox3 is at 60% completion. It has 9 engineers.",
    "context": [{"id": "mem_X", "text": "Inbox3 is at 60% completion.", "source": "corpus"}],
}


class FakeMessage:
    def __init__(self, value: bytes | None, offset: int) -> None:
        self._value, self._offset = value, offset

    def value(self) -> bytes | None:
        return self._value

    def key(self) -> bytes:
        return b"acme"

    def headers(self) -> None:
        return None

    def topic(self) -> str:
        return "t.answers"

    def partition(self) -> int:
        return 0

    def offset(self) -> int:
        return self._offset


def stage(**faithfulness: Any) -> tuple[AnswersStage, Settings]:
    settings = Settings(topic_prefix="t.", guards={"faithfulness": faithfulness})
    scorer = AnswerScorer(settings.guards, worker="w1")
    return AnswersStage(settings, scorer, answer_limits(settings)), settings


async def test_answers_become_scored_records_and_audit_events() -> None:
    answers, _ = stage()
    big = {**ANSWER, "answer_id": "a3", "text": "x" * 30_000}
    messages = [
        FakeMessage(orjson.dumps(ANSWER), 0),
        FakeMessage(b"{not json", 1),
        FakeMessage(orjson.dumps({**ANSWER, "tenant_id": " bad"}), 2),
        FakeMessage(orjson.dumps(big), 3),
        FakeMessage(None, 4),
    ]
    outputs = await answers.process(messages)  # type: ignore[arg-type]
    by_topic: dict[str, list[Any]] = {}
    for out in outputs:
        by_topic.setdefault(out.topic, []).append(out)
    [scored_out] = by_topic["t.answers.scored"]
    [audit] = by_topic["t.audit"]
    scored = ScoredAnswer.model_validate_json(scored_out.value)
    assert scored.answer.answer_id == "a1" and scored.risk is RiskLevel.HIGH
    assert scored_out.key == b"acme" and scored_out.value == audit.value
    assert ("event", b"answer_score") in audit.headers
    assert ("risk", b"high") in scored_out.headers
    reasons = [DlqRecord.model_validate_json(o.value).reason for o in by_topic["t.dlq"]]
    assert reasons == [
        DlqReason.NOT_JSON,
        DlqReason.INVALID_ANSWER,
        DlqReason.TOO_LARGE,
        DlqReason.EMPTY,
    ]
    await answers.close()


async def test_too_many_sources_is_refused_before_scoring() -> None:
    answers, _ = stage(max_context_sources=2)
    doc = {**ANSWER, "context": ANSWER["context"] * 3}
    [out] = await answers.process([FakeMessage(orjson.dumps(doc), 0)])  # type: ignore[list-item]
    assert DlqRecord.model_validate_json(out.value).reason is DlqReason.TOO_MANY_TURNS
    await answers.close()


def test_the_stage_is_opt_in() -> None:
    assert "answers" not in STAGES
    assert OPT_IN_STAGES == ("answers",) and "answers" in ALL_STAGES


def test_regenerate_without_a_webhook_refuses_to_start() -> None:
    settings = Settings(guards={"faithfulness": {"tenant_policies": {"acme": "regenerate"}}})
    with pytest.raises(ValueError, match="webhook_url"):
        build_answer_scorer(settings, use_cache=False)
