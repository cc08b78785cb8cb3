"""The `review` topic into the queue: a stage of the transactional runner.

Each record on `review` (a RoutedResult of tier flag_review) becomes a pending claim in
Redis, and its `enqueue` audit event is written in the same Kafka transaction as the
consumer offsets (streams/runner.py). Redis is written first, inside `process`, so an
offset is committed only after Redis has the item. A crash before the commit replays the
batch: enqueueing is idempotent by claim_id and a known claim keeps its first outcome
(queue id, submission time, overflow), so the replay writes the same outputs, and only
the committed copy is ever visible.

A claim that finds its owner's queue (`review.max_per_owner`) or the whole queue
(`review.max_total`) full is not lost: it goes to `blocked` with reason code
`review_queue_full`, and an `overflow` event goes to audit.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from confluent_kafka import Message
from pydantic import ValidationError

from groundwire.metrics import review as review_metrics
from groundwire.streams import kafka
from groundwire.streams.review import faults
from groundwire.streams.review.store import Enqueued, NewItem, ReviewStore
from groundwire.streams.runner import Output
from groundwire.streams.settings import Settings
from groundwire.streams.stages.dlq import dead_letter, dlq_output, oversize_output
from groundwire.topics.codec import DecodeFailure, dumps
from groundwire.topics.records import ReviewAuditEvent, RoutedResult
from groundwire.topics.vocab import (
    DlqReason,
    ReasonCode,
    ReviewAction,
    ReviewLimit,
    ReviewRole,
    Tier,
)

log = logging.getLogger(__name__)

AUDIT_HEADERS = (("event", b"review"),)


def overflow_record(result: RoutedResult, limit: ReviewLimit, bound: int, at: datetime) -> bytes:
    """The blocked record of a claim the full queue could not take: the routed record with
    its validation turned into a block (reason code review_queue_full)."""
    who = "its owner's" if limit is ReviewLimit.OWNER else "the whole"
    v = result.validation
    validation = v.model_copy(
        update={
            "tier": Tier.BLOCK,
            "approved": False,
            "reason": f"Review queue full: {who} queue already holds {bound} pending claims",
            "reason_code": ReasonCode.REVIEW_QUEUE_FULL,
            "checks_failed": [*v.checks_failed, f"review_queue_full: {limit.value} limit {bound}"],
            "evidence": v.evidence.model_copy(update={"confidence": "low"}),
        }
    )
    blocked = result.model_copy(
        update={
            "validation": validation,
            "tags": [*result.tags, "review_queue_full"],
            "routed_at": at,
        }
    )
    return dumps(blocked)


class ReviewFeedStage:
    name = "review_feed"

    def __init__(
        self, settings: Settings, store: ReviewStore, clock: Callable[[], float] = time.time
    ) -> None:
        self.settings = settings
        self.source_topic = settings.topics.review
        self.store = store
        self._clock = clock

    async def process(self, messages: Sequence[Message]) -> list[Output]:
        outputs: list[Output] = []
        results: list[RoutedResult] = []
        sources: list[Message] = []
        now_ms = int(self._clock() * 1000)
        for message in messages:
            try:
                result = RoutedResult.model_validate_json(message.value() or b"")
            except ValidationError as exc:
                detail = f"not a RoutedResult: {str(exc)[:1000]}"
                outputs.append(self._invalid(message, detail))
                continue
            if result.validation.tier is not Tier.FLAG_REVIEW:
                detail = f"tier {result.validation.tier.value} on the review topic"
                outputs.append(self._invalid(message, detail))
                continue
            results.append(result)
            sources.append(message)
        if not results:
            return outputs
        items = [
            NewItem(
                tenant_id=r.claim.tenant_id,
                owner=r.claim.user_id,
                claim_id=r.claim.claim_id,
                # The pipeline's decision time, never in the future (a skewed clock must
                # not put a claim at the top of a queue for ever).
                submitted_ms=min(int(r.routed_at.timestamp() * 1000), now_ms),
                record=m.value() or b"",
                origin=_origin(m),
            )
            for r, m in zip(results, sources, strict=True)
        ]
        outcomes = await self.store.enqueue(items)
        faults.point("feed.after_redis")
        for result, item, message, outcome in zip(results, items, sources, outcomes, strict=True):
            outputs.extend(self._outputs(result, item, message, outcome))
        return outputs

    def _outputs(
        self, result: RoutedResult, item: NewItem, message: Message, outcome: Enqueued
    ) -> list[Output]:
        topics = self.settings.topics
        key = item.tenant_id.encode()
        at = datetime.fromtimestamp(outcome.submitted_ms / 1000, UTC)
        event = ReviewAuditEvent(
            action=ReviewAction.ENQUEUE,
            tenant_id=item.tenant_id,
            actor="",
            role=ReviewRole.SYSTEM,
            at=at,
            request_id=item.origin,
            queue_id=outcome.queue_id or None,
            claim_id=item.claim_id,
            owner=item.owner,
        )
        new = outcome.seen == "new"
        if outcome.seen == "duplicate":
            # Another review record of a claim the queue already knows: noted, not queued.
            event = event.model_copy(
                update={"reason": f"claim already known to the queue ({outcome.state})"}
            )
            return [Output(topics.audit, key, dumps(event), AUDIT_HEADERS)]
        if not outcome.overflow:
            if new:
                review_metrics.observe_enqueued()
            return [Output(topics.audit, key, dumps(event), AUDIT_HEADERS)]
        limit = outcome.limit or ReviewLimit.TOTAL
        bound = (
            self.settings.review.max_per_owner
            if limit is ReviewLimit.OWNER
            else self.settings.review.max_total
        )
        if new:
            review_metrics.observe_overflow(limit)
        body = overflow_record(result, limit, bound, at)
        if len(body) > self.settings.max_output_bytes:
            return [oversize_output(self.settings, message, len(body))]
        overflow = event.model_copy(
            update={"action": ReviewAction.OVERFLOW, "limit": limit, "queue_id": None}
        )
        return [
            Output(topics.blocked, key, body, (("tier", b"block"), ("event", b"review_overflow"))),
            Output(topics.audit, key, dumps(overflow), AUDIT_HEADERS),
        ]

    def _invalid(self, message: Message, detail: str) -> Output:
        return dlq_output(self.settings, message, DecodeFailure(DlqReason.INVALID_REVIEW, detail))

    def dead_letter(self, message: Message, reason: str, detail: str) -> Output:
        return dead_letter(self.settings, message, reason, detail)

    async def close(self) -> None:
        """The store's Redis client belongs to the service, which closes it."""


def _origin(message: Message) -> str:
    topic, partition, offset = kafka.coordinates(message)
    return f"{topic}:{partition}:{offset}"
