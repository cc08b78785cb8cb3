"""The two stages of the pipeline.

screen (stateless, any partition): decode, validate, hedge / citation / provenance.
route (stateful, keyed by tenant): grounding, dedup check-and-insert, tier policy; writes
the claim to exactly one of approved / review / blocked, and every decision to audit.
Both write unreadable input to the dlq with a machine-readable reason.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from confluent_kafka import Message
from pydantic import ValidationError

from groundwire.guards.screening import screen_batch
from groundwire.guards.validator import Validator
from groundwire.streams import telemetry
from groundwire.streams.codec import DecodeError, decode_claim, dlq_record, dumps
from groundwire.streams.settings import Settings
from groundwire.streams.stage import Output
from groundwire.topics.records import Claim, RoutedResult, ScreenedClaim, Tier

log = logging.getLogger(__name__)


def _dlq_output(settings: Settings, message: Message, error: DecodeError) -> Output:
    record = dlq_record(
        error,
        value=message.value(),
        key=message.key(),
        topic=message.topic(),
        partition=message.partition(),
        offset=message.offset(),
    )
    telemetry.dlq(error.reason)
    return Output(
        settings.topics.dlq, message.key(), dumps(record), (("reason", error.reason.encode()),)
    )


class ScreenStage:
    name = "screen"

    def __init__(
        self,
        settings: Settings,
        citation_verifier: object | None = None,
        grounder: Validator | None = None,
    ) -> None:
        self.settings = settings
        self.source_topic = settings.topics.claims
        self.citation_verifier = citation_verifier
        # grounding_stage="screen": grounding needs no tenant state, so it runs here, where
        # any partition can be served and the CPU splits evenly between the two stages.
        self.grounder = grounder

    async def process(self, messages: Sequence[Message]) -> list[Output]:
        started = time.perf_counter()
        outputs: list[Output] = []
        claims: list[Claim] = []
        for message in messages:
            decoded = decode_claim(
                message.value(),
                max_record_bytes=self.settings.max_record_bytes,
                max_content_bytes=self.settings.max_content_bytes,
            )
            if isinstance(decoded, DecodeError):
                outputs.append(_dlq_output(self.settings, message, decoded))
            else:
                claims.append(decoded)
        if claims:
            screened = await screen_batch(claims, self.settings.guards, self.citation_verifier)
            if self.grounder is not None:
                await self._ground(screened)
            for item in screened:  # screen_batch stamps received_at once per batch
                outputs.append(
                    Output(
                        self.settings.topics.screened, item.claim.tenant_id.encode(), dumps(item)
                    )
                )
        telemetry.stage_latency("screen", time.perf_counter() - started)
        return outputs

    async def _ground(self, screened: list[ScreenedClaim]) -> None:
        assert self.grounder is not None
        t0 = time.perf_counter()
        reports = await self.grounder.ground(screened)
        elapsed = time.perf_counter() - t0
        share = elapsed * 1e3 / len(screened)
        for item, report in zip(screened, reports, strict=True):
            item.grounding = report
            item.timings_ms["grounding"] = share
        telemetry.stage_latency("grounding", elapsed)
        telemetry.grounding_latency(elapsed)

    async def close(self) -> None:
        if self.grounder is not None:
            await self.grounder.aclose()


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
                outputs.append(
                    _dlq_output(
                        self.settings, message, DecodeError("invalid_screened", str(exc)[:1000])
                    )
                )
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

    async def close(self) -> None:
        close = getattr(self.validator, "aclose", None)
        if close is not None:
            await close()
