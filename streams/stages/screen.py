"""The stateless stage: decode, authenticate the producer, screen (hedge, citations,
provenance) and, by default, ground each claim; any replica may serve any partition of
`claims`.

Unreadable input goes to the dlq with a machine-readable reason; so does, in strict mode,
a claim of a trusted source whose producer is not authenticated for it
(`unauthenticated_source`; in the default mode it is screened as ai_synthesis). The
producer check runs first, so nothing downstream ever reads an unauthenticated trusted
source. Everything else goes to `claims.screened`, keyed by tenant, for the route stage.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from confluent_kafka import Message

from groundwire.guards.citations import CitationVerifier
from groundwire.guards.grounder import Grounder
from groundwire.guards.producer_auth import ProducerAuthenticator, build_authenticator
from groundwire.guards.screening import screen_batch
from groundwire.streams import telemetry
from groundwire.streams.runner import Output
from groundwire.streams.settings import Settings
from groundwire.streams.stages.dlq import (
    ORIGIN_HEADER,
    dead_letter,
    dlq_output,
    origin_of,
    oversize_output,
)
from groundwire.topics.codec import DecodeFailure, decode_signed_claim, dumps
from groundwire.topics.records import Claim, ProducerAuthReport, ScreenedClaim
from groundwire.topics.vocab import DlqReason, ProducerAuthAction, ProducerAuthOutcome


class ScreenStage:
    name = "screen"

    def __init__(
        self,
        settings: Settings,
        citation_verifier: CitationVerifier | None = None,
        grounder: Grounder | None = None,
        authenticator: ProducerAuthenticator | None = None,
    ) -> None:
        self.settings = settings
        # The key registry is read here, at start: a bad one stops the stage from starting.
        self.authenticator = authenticator or build_authenticator(settings.guards)
        self.source_topic = settings.topics.claims
        self.citation_verifier = citation_verifier
        # grounding_stage="screen": grounding needs no tenant state, so it runs here, where
        # any partition can be served and the CPU splits evenly between the two stages.
        self.grounder = grounder

    async def process(self, messages: Sequence[Message]) -> list[Output]:
        started = time.perf_counter()
        outputs: list[Output] = []
        claims: list[Claim] = []
        reports: list[ProducerAuthReport] = []
        sources: list[Message] = []
        limits = self.settings.decode_limits
        seen: list[tuple[ProducerAuthOutcome, ProducerAuthAction]] = []
        for message in messages:
            decoded = decode_signed_claim(message.value(), limits)
            if isinstance(decoded, DecodeFailure):
                outputs.append(dlq_output(self.settings, message, decoded))
                continue
            checked = self.authenticator.check(decoded.claim, decoded.signed_payload)
            report = checked.report
            seen.append((report.outcome, report.action))
            if checked.refused:
                detail = (
                    f"source {report.claimed_source.value!r} needs an authenticated producer: "
                    f"{report.outcome.value}"
                    + (f" (key_id {report.key_id!r})" if report.key_id is not None else "")
                )
                failure = DecodeFailure(DlqReason.UNAUTHENTICATED_SOURCE, detail)
                outputs.append(dlq_output(self.settings, message, failure))
                continue
            claims.append(checked.claim)
            reports.append(report)
            sources.append(message)
        telemetry.producer_auth_batch(seen)  # one increment per series, not per claim
        if claims:
            screened = await screen_batch(claims, self.settings.guards, self.citation_verifier)
            for item, report in zip(screened, reports, strict=True):
                item.producer_auth = report
            if self.grounder is not None:
                await self._ground(screened)
            topic = self.settings.topics.screened
            for message, item in zip(sources, screened, strict=True):
                body = dumps(item)  # screen_batch stamps received_at once per batch
                if len(body) > self.settings.max_output_bytes:
                    outputs.append(oversize_output(self.settings, message, len(body)))
                    continue
                # Where the claim was published: the route stage's claim_id ledger tells
                # a reprocessed record (same origin) from a second publication of it.
                headers = ((ORIGIN_HEADER, origin_of(message)),)
                outputs.append(Output(topic, item.claim.tenant_id.encode(), body, headers))
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

    def dead_letter(self, message: Message, reason: str, detail: str) -> Output:
        return dead_letter(self.settings, message, reason, detail)

    async def close(self) -> None:
        if self.grounder is not None:
            await self.grounder.aclose()
