"""The keyed stage: dedup check-and-insert and the tier policy, per tenant partition.

It writes each claim to exactly one of approved / review / blocked and every decision to
audit. It grounds only records that arrive without a report (grounding runs in the
screen stage by default). Claims of one tenant share a partition, so the dedup index's
check-and-insert for that tenant is never raced by another replica.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from confluent_kafka import Message
from pydantic import ValidationError

from groundwire.guards.validator import Validator
from groundwire.streams import telemetry
from groundwire.streams.runner import Output
from groundwire.streams.settings import Settings
from groundwire.streams.stages.dlq import dead_letter, dlq_output
from groundwire.topics.codec import DecodeFailure, dumps
from groundwire.topics.records import RoutedResult, ScreenedClaim, Tier
from groundwire.topics.vocab import DlqReason

log = logging.getLogger(__name__)


_TIER_TOPIC = {
    Tier.AUTO_APPROVE: "approved",
    Tier.FLAG_REVIEW: "review",
    Tier.BLOCK: "blocked",
}


def _observe_batch_timings(results: Sequence[RoutedResult], grounded_here: bool) -> None:
    """The validator reports grounding and dedup time per claim, amortised over its batch;
    the histograms record the batch's total, the unit of work that waits on Redis or on a
    verifier (per-batch, like the other stage latencies). Grounding done by the screen
    stage was recorded there."""
    if not results:
        return
    n = len(results)
    timings = results[0].timings_ms
    stages = ("grounding", "dedup") if grounded_here else ("dedup",)
    for stage in stages:
        if stage in timings:
            telemetry.stage_latency(stage, timings[stage] * n / 1e3)
    if grounded_here and "grounding" in timings:
        telemetry.grounding_latency(timings["grounding"] * n / 1e3)


class RouteStage:
    name = "route"

    def __init__(self, settings: Settings, validator: Validator) -> None:
        self.settings = settings
        self.source_topic = settings.topics.screened
        self.validator = validator

    async def process(self, messages: Sequence[Message]) -> list[Output]:
        started = time.perf_counter()
        outputs: list[Output] = []
        screened: list[ScreenedClaim] = []
        for message in messages:
            try:
                screened.append(ScreenedClaim.model_validate_json(message.value() or b""))
            except ValidationError as exc:
                # Only another producer writing to our internal topic can cause this.
                failure = DecodeFailure(DlqReason.INVALID_SCREENED, str(exc)[:1000])
                outputs.append(dlq_output(self.settings, message, failure))
        if screened:
            grounded_here = any(s.grounding is None for s in screened)
            results = await self.validator.decide_batch(screened, worker=self.settings.worker_id)
            _observe_batch_timings(results, grounded_here)
            topics = self.settings.topics
            for result in results:
                key = result.claim.tenant_id.encode()
                body = dumps(result)
                tier = result.validation.tier
                headers = (("tier", tier.value.encode()),)
                outputs.append(Output(topics.name(_TIER_TOPIC[tier]), key, body, headers))
                outputs.append(Output(topics.audit, key, body, (*headers, ("event", b"decision"))))
                telemetry.routed(result)
        telemetry.stage_latency("route", time.perf_counter() - started)
        return outputs

    def dead_letter(self, message: Message, reason: str, detail: str) -> Output:
        return dead_letter(self.settings, message, reason, detail)

    async def close(self) -> None:
        await self.validator.aclose()
