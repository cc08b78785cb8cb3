"""The decode-time limit checks' fast paths agree with the plain definitions."""

from __future__ import annotations

import random

import orjson
import pytest

from groundwire.topics.codec import (
    DecodeFailure,
    DecodeLimits,
    _deeper_than,
    _utf8_size,
    decode_signed_claim,
    json_depth,
)
from groundwire.topics.vocab import DlqReason


def _random_json(rng: random.Random, budget: int) -> object:
    roll = rng.random()
    if budget <= 0 or roll < 0.3:
        return rng.choice([1, "s", None, 2.5, True, [], {}])
    if roll < 0.65:
        return [_random_json(rng, budget - 1) for _ in range(rng.randrange(4))]
    return {f"k{i}": _random_json(rng, budget - 1) for i in range(rng.randrange(4))}


def test_deeper_than_agrees_with_json_depth() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        doc = orjson.loads(orjson.dumps(_random_json(rng, rng.randrange(12))))
        if not isinstance(doc, dict | list):
            continue
        for limit in range(0, 12):
            assert _deeper_than(doc, limit) == (json_depth(doc, limit) > limit), (doc, limit)


@pytest.mark.parametrize("text", ["", "plain ascii", "Zürich", "日本語", "😀 x", "\u2028"])
def test_utf8_size_is_the_encoded_length(text: str) -> None:
    assert _utf8_size(text) == len(text.encode("utf-8"))


def test_utf8_size_of_a_lone_surrogate_still_raises() -> None:
    with pytest.raises(UnicodeEncodeError):
        _utf8_size("\ud800")


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("content", "é" * 9, DlqReason.TOO_LARGE),  # 9 characters, 18 bytes
        ("content", "e" * 17, DlqReason.TOO_LARGE),
        ("source_turns", [{"id": "t", "text": "€" * 7}], DlqReason.TOO_LARGE),  # 21 bytes
        ("metadata", {"a": {"b": {"c": {}}}}, DlqReason.TOO_DEEP),
    ],
)
def test_limits_count_bytes_not_characters(field: str, value: object, reason: DlqReason) -> None:
    limits = DecodeLimits(max_content_bytes=16, max_turn_bytes=20, max_json_depth=4)
    doc = {"claim_id": "c", "tenant_id": "t", "content": "ok", "source": "user", field: value}
    decoded = decode_signed_claim(orjson.dumps(doc), limits)
    assert isinstance(decoded, DecodeFailure)
    assert decoded.reason is reason


def test_limits_at_the_boundary_pass() -> None:
    limits = DecodeLimits(max_content_bytes=16, max_turn_bytes=21, max_json_depth=4)
    doc = {
        "claim_id": "c",
        "tenant_id": "t",
        "content": "é" * 8,
        "source": "user",
        "source_turns": [{"id": "t", "text": "€" * 7}],
        "metadata": {"a": {"b": {}}},
    }
    decoded = decode_signed_claim(orjson.dumps(doc), limits)
    assert not isinstance(decoded, DecodeFailure)
