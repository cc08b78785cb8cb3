"""The dead-letter record a stage writes instead of a record it cannot read."""

from __future__ import annotations

from confluent_kafka import Message

from groundwire.streams import telemetry
from groundwire.streams.runner import Output
from groundwire.streams.settings import Settings
from groundwire.topics.codec import DecodeError, dlq_record, dumps


def dlq_output(settings: Settings, message: Message, error: DecodeError) -> Output:
    """The dlq record for `message`, counted; its reason also travels as a header so a
    consumer of the dlq can filter without parsing the body."""
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
