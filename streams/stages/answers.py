"""The answers stage: score each answer on `answers` and write it to `answers.scored` and
`audit` (docs/spec.md §Read-time faithfulness). Opt-in: it runs only when named
(`groundwire worker --stages answers`), as guard 3 is off by default.

Stateless (any replica may take any partition); a batch's scores and its input offsets
commit in one Kafka transaction like every stage (`streams/runner.py`), so each answer
is scored onto `answers.scored` exactly once. Unreadable input goes to `dlq` with a
reason. With the `regenerate` policy the webhook may be called again when a batch is
replayed after a crash; only the committed attempt is ever visible.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from confluent_kafka import Message

from groundwire.guards.faithfulness.score import AnswerScorer
from groundwire.streams import telemetry
from groundwire.streams.runner import Output
from groundwire.streams.settings import Settings
from groundwire.streams.stages.dlq import dead_letter, dlq_output, oversize_output
from groundwire.topics.answers import Answer, AnswerLimits, ScoredAnswer, decode_answer
from groundwire.topics.codec import DecodeFailure, dumps

AUDIT_EVENT = b"answer_score"


def scored_outputs(settings: Settings, scored: ScoredAnswer) -> list[Output]:
    """The records one scored answer becomes: `answers.scored` and `audit`."""
    topics = settings.topics
    key = scored.answer.tenant_id.encode()
    body = dumps(scored)
    headers = (("risk", scored.risk.value.encode()), ("action", scored.action.value.encode()))
    return [
        Output(topics.name("answers.scored"), key, body, headers),
        Output(topics.audit, key, body, (*headers, ("event", AUDIT_EVENT))),
    ]


class AnswersStage:
    name = "answers"

    def __init__(self, settings: Settings, scorer: AnswerScorer, limits: AnswerLimits) -> None:
        self.settings = settings
        self.source_topic = settings.topics.name("answers")
        self.scorer = scorer
        self.limits = limits

    async def process(self, messages: Sequence[Message]) -> list[Output]:
        started = time.perf_counter()
        outputs: list[Output] = []
        answers: list[Answer] = []
        sources: list[Message] = []
        for message in messages:
            decoded = decode_answer(message.value(), self.limits)
            if isinstance(decoded, DecodeFailure):
                outputs.append(dlq_output(self.settings, message, decoded))
                continue
            answers.append(decoded)
            sources.append(message)
        if answers:
            scored = await self.scorer.score_batch(answers)
            share = (time.perf_counter() - started) / len(answers)
            for message, item in zip(sources, scored, strict=True):
                records = scored_outputs(self.settings, item)
                if any(len(r.value or b"") > self.settings.max_output_bytes for r in records):
                    size = len(records[0].value or b"")
                    outputs.append(oversize_output(self.settings, message, size))
                    continue
                outputs.extend(records)
                telemetry.answer_scored(item, share)
        telemetry.stage_latency(self.name, time.perf_counter() - started)
        return outputs

    def dead_letter(self, message: Message, reason: str, detail: str) -> Output:
        return dead_letter(self.settings, message, reason, detail)

    async def close(self) -> None:
        await self.scorer.aclose()
