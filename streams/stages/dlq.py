"""The dead-letter record a stage writes instead of a record it cannot read."""

from __future__ import annotations

from confluent_kafka import Message

from groundwire.streams import kafka, telemetry
from groundwire.streams.runner import Output
from groundwire.streams.settings import Settings
from groundwire.topics.codec import DecodeFailure, dlq_record, dumps
from groundwire.topics.vocab import DlqReason


def dlq_output(settings: Settings, message: Message, error: DecodeFailure) -> Output:
    """The dlq record for `message`, counted; its reason also travels as a header so a
    consumer of the dlq can filter without parsing the body."""
    topic, partition, offset = kafka.coordinates(message)
    record = dlq_record(
        error,
        value=message.value(),
        key=message.key(),
        topic=topic,
        partition=partition,
        offset=offset,
        max_bytes=settings.max_output_bytes,
    )
    telemetry.dlq(error.reason)
    return Output(
        settings.topics.dlq, message.key(), dumps(record), (("reason", error.reason.encode()),)
    )


def dead_letter(settings: Settings, message: Message, reason: str, detail: str) -> Output:
    """The dlq record for a record the stage could not process (not a producer's
    mistake: `reason` says which of our failures it was)."""
    return dlq_output(settings, message, DecodeFailure(DlqReason(reason), detail))


def oversize_output(settings: Settings, message: Message, size: int) -> Output:
    """Instead of an output the broker would refuse (and whose refusal would abort the
    whole batch's transaction, over and over)."""
    detail = f"the routed record would be {size} bytes, limit {settings.max_output_bytes}"
    return dlq_output(settings, message, DecodeFailure(DlqReason.OUTPUT_TOO_LARGE, detail))


ORIGIN_HEADER = "origin"


def origin_of(message: Message) -> bytes:
    """`topic:partition:offset` of a record: where a claim entered the pipeline."""
    return f"{message.topic()}:{message.partition()}:{message.offset()}".encode()
