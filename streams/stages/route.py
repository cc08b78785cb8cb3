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
from datetime import UTC, datetime

from confluent_kafka import Message
from pydantic import ValidationError

from groundwire.guards.validator import Validator
from groundwire.streams import telemetry
from groundwire.streams.ledger import ClaimLedger, LedgerCheck, LedgerEntry, Seen
from groundwire.streams.runner import Output
from groundwire.streams.settings import Settings
from groundwire.streams.stages.dlq import (
    ORIGIN_HEADER,
    dead_letter,
    dlq_output,
    origin_of,
    oversize_output,
)
from groundwire.topics.codec import DecodeFailure, dumps
from groundwire.topics.records import ReplayNotice, RoutedResult, ScreenedClaim, Tier
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

    def __init__(
        self, settings: Settings, validator: Validator, ledger: ClaimLedger | None = None
    ) -> None:
        self.settings = settings
        self.source_topic = settings.topics.screened
        self.validator = validator
        self.ledger = ledger
        # Per tier, once: its topic and the headers of its two records (the tier topic's
        # and audit's), which were a topic-name check and two tuples per claim.
        self._tier_outputs = {
            tier: (
                settings.topics.name(suffix),
                (("tier", tier.value.encode()),),
                (("tier", tier.value.encode()), ("event", b"decision")),
            )
            for tier, suffix in _TIER_TOPIC.items()
        }

    async def process(self, messages: Sequence[Message]) -> list[Output]:
        started = time.perf_counter()
        outputs: list[Output] = []
        screened: list[ScreenedClaim] = []
        sources: list[Message] = []
        # The model's validator itself: `ScreenedClaim.model_validate_json` is this call
        # behind a Python wrapper (~4,300 of its ~106,000 instructions a record), with the
        # same arguments, result and errors.
        validate = ScreenedClaim.__pydantic_validator__.validate_json
        for message in messages:
            try:
                screened.append(validate(message.value() or b""))
                sources.append(message)
            except ValidationError as exc:
                # Only another producer writing to our internal topic can cause this.
                failure = DecodeFailure(DlqReason.INVALID_SCREENED, str(exc)[:1000])
                outputs.append(dlq_output(self.settings, message, failure))
        if screened:
            outputs.extend(await self._route(screened, sources))
        telemetry.stage_latency("route", time.perf_counter() - started)
        return outputs

    async def _route(self, screened: list[ScreenedClaim], sources: list[Message]) -> list[Output]:
        outputs: list[Output] = []
        ledger = self.ledger
        if ledger is None:
            # No claim_id ledger: every claim is new, and nothing reads an entry (its
            # digest, a serialisation and a SHA-256 of the claim, and its origin header
            # were ~57,000 instructions a claim, thrown away).
            return await self._decide(screened, sources, list(range(len(screened))), None, None)
        entries = [LedgerEntry(s.claim, _origin(m)) for s, m in zip(screened, sources, strict=True)]
        checks = await ledger.check(entries)
        todo: list[int] = []
        for i, check in enumerate(checks):
            if check.seen is Seen.REPLAY:
                outputs.append(self._replay_notice(entries[i], check))
            elif check.seen is Seen.REUSED:
                detail = (
                    f"claim_id {entries[i].claim.claim_id!r} was decided with other content "
                    f"(first published at {check.first_origin})"
                )
                failure = DecodeFailure(DlqReason.CLAIM_ID_REUSED, detail)
                outputs.append(dlq_output(self.settings, sources[i], failure))
            else:
                todo.append(i)
        if not todo:
            return outputs
        unknown = [checks[i].seen is Seen.UNKNOWN for i in todo]
        outputs.extend(await self._decide(screened, sources, todo, unknown, entries))
        return outputs

    async def _decide(
        self,
        screened: list[ScreenedClaim],
        sources: list[Message],
        todo: list[int],
        unknown: list[bool] | None,
        entries: list[LedgerEntry] | None,
    ) -> list[Output]:
        """Decide the claims at `todo` and write them out. `unknown` / `entries`: the
        ledger's answers and entries (None without a ledger: all new, nothing recorded)."""
        outputs: list[Output] = []
        batch = [screened[i] for i in todo] if len(todo) < len(screened) else screened
        grounded_here = any(s.grounding is None for s in batch)
        results = await self.validator.decide_batch(
            batch,
            worker=self.settings.worker_id,
            uniqueness_unknown=unknown,
        )
        _observe_batch_timings(results, grounded_here)
        audit = self.settings.topics.audit
        decided: list[tuple[LedgerEntry, str]] = []
        counted: list[RoutedResult] = []
        for i, result in zip(todo, results, strict=True):
            key = result.claim.tenant_id.encode()
            body = dumps(result)
            if len(body) > self.settings.max_output_bytes:
                outputs.append(oversize_output(self.settings, sources[i], len(body)))
                continue
            tier = result.validation.tier
            topic, headers, audit_headers = self._tier_outputs[tier]
            outputs.append(Output(topic, key, body, headers))
            outputs.append(Output(audit, key, body, audit_headers))
            counted.append(result)
            if entries is not None:
                decided.append((entries[i], tier.value))
        telemetry.routed_batch(counted)  # one increment per series, not per claim
        if self.ledger is not None:
            # Before the transaction commits, on purpose: if it aborts, the same records
            # come back with the same origins and are decided again (REPROCESSED).
            await self.ledger.record(decided)
        return outputs

    def _replay_notice(self, entry: LedgerEntry, check: LedgerCheck) -> Output:
        notice = ReplayNotice(
            claim=entry.claim,
            earlier_tier=Tier(check.earlier_tier) if check.earlier_tier else None,
            first_origin=check.first_origin or "",
            origin=entry.origin,
            noted_at=datetime.now(UTC),
            worker=self.settings.worker_id,
        )
        telemetry.claim_replayed()
        return Output(
            self.settings.topics.audit,
            entry.claim.tenant_id.encode(),
            dumps(notice),
            (("event", b"replay"),),
        )

    def dead_letter(self, message: Message, reason: str, detail: str) -> Output:
        return dead_letter(self.settings, message, reason, detail)

    async def close(self) -> None:
        await self.validator.aclose()
        if self.ledger is not None:
            await self.ledger.aclose()


def _origin(message: Message) -> str:
    """Where the claim was first published, from the screen stage's header; a record
    without one (written by an older screen worker) stands for its own position."""
    headers = message.headers()
    # A consumed record's headers are a list of (name, bytes) pairs; the declared type also
    # admits the forms a producer may pass (a dict, str values).
    if isinstance(headers, list):
        for name, value in headers:
            if name == ORIGIN_HEADER and isinstance(value, bytes) and value:
                return value.decode("utf-8", errors="replace")
    return origin_of(message).decode()
