"""Publishing claims to the `claims` topic, as `groundwire produce` and the demo do.

Lines go out as-is, keyed by their tenant_id when they parse: a malformed line is still
published, so the pipeline routes it to the dlq with a reason instead of the publisher
silently dropping it. With a `Signer` every line that is a JSON object is signed first
(`key_id` set, `signature` computed over its canonical JSON: topics/signing.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import orjson

from groundwire.streams import kafka
from groundwire.streams.settings import Settings
from groundwire.topics.signing import sign_claim


@dataclass(frozen=True)
class Signer:
    """Signs claims as producer `key_id` (the secret is never printed or logged)."""

    key_id: str
    secret: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if not self.key_id or not self.secret:
            raise ValueError("a signer needs a key id and a non-empty secret")

    def sign_line(self, line: bytes) -> bytes:
        """The line signed, if it is a JSON object; else unchanged (it goes to the dlq)."""
        try:
            doc = orjson.loads(line)
        except orjson.JSONDecodeError:
            return line
        if not isinstance(doc, dict):
            return line
        try:
            return orjson.dumps(sign_claim(doc, self.key_id, self.secret))
        except (TypeError, ValueError, UnicodeEncodeError):
            return line  # not canonicalisable (a lone surrogate): sent as it is


def read_secret(path: str) -> bytes:
    """A key file's secret: its text, trimmed, as UTF-8 bytes."""
    with open(path, encoding="utf-8") as f:
        secret = f.read().strip().encode("utf-8")
    if not secret:
        raise ValueError(f"{path} holds no secret")
    return secret


def tenant_key(line: bytes) -> bytes | None:
    try:
        doc = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    tenant = doc.get("tenant_id") if isinstance(doc, dict) else None
    return tenant.encode("utf-8") if isinstance(tenant, str) and tenant else None


def publish_claims(
    settings: Settings,
    lines: Sequence[bytes],
    on_sent: Callable[[], object] | None = None,
    signer: Signer | None = None,
) -> tuple[int, list[str]]:
    """Publish every line; (records acknowledged, delivery failures). `on_sent` is called
    once per line handed to the producer (a progress bar); `signer` signs each claim.

    When the cluster refuses the producer (wrong credentials, TLS failure) publishing stops
    within about a second: every record not acknowledged fails with that reason.
    """
    errors = kafka.ClientErrors(settings.bootstrap_servers)
    producer = kafka.idempotent_producer(settings, errors)
    failures: list[str] = []
    acked = 0

    def on_delivery(err: object, _msg: object) -> None:
        nonlocal acked
        if err is not None:
            failures.append(str(err))
        else:
            acked += 1

    try:
        for line in lines:
            if signer is not None:
                line = signer.sign_line(line)
            kafka.produce(
                producer,
                settings.topics.claims,
                line,
                tenant_key(line),
                on_delivery=on_delivery,
                errors=errors,
            )
            producer.poll(0)
            if on_sent is not None:
                on_sent()
        deadline = time.monotonic() + 60
        while producer.flush(0.2) and time.monotonic() < deadline:
            errors.check()
        errors.check()
    except kafka.KafkaClientFailure as exc:
        producer.purge()  # nothing queued will be delivered; do not wait for it
        producer.flush(0)
        return acked, [str(exc)] * (len(lines) - acked)
    remaining = len(producer)
    if remaining:
        failures.append(f"{remaining} record(s) still queued after 60s")
    return acked, failures
