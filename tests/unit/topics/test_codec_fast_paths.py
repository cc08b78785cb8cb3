"""The decode-time limit checks' fast paths agree with the plain definitions."""

from __future__ import annotations

import random

import orjson
import pytest

from groundwire.topics.codec import (
    DecodeFailure,
    DecodeLimits,
    _deeper_than,
    _shallow,
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


# session 15: the depth bound from the record's bytes and the UTF-8 check skipped for ASCII


def test_shallow_bytes_never_hide_a_deep_document() -> None:
    """`_shallow` may say "don't know" (False) but never "shallow" for a deeper document,
    including brackets inside strings and non-ASCII text."""
    rng = random.Random(11)
    seen_true = seen_false = 0
    for _ in range(3000):
        doc = _random_json(rng, rng.randrange(12))
        if isinstance(doc, dict) and rng.random() < 0.3:
            doc["s"] = rng.choice(["[{", "é[", "}]", "日本{"])
        raw = orjson.dumps(doc)
        for limit in range(0, 12):
            if _shallow(raw, limit):
                seen_true += 1
                assert json_depth(orjson.loads(raw), limit) <= limit, (raw, limit)
            else:
                seen_false += 1
    assert seen_true and seen_false


def test_a_shallow_claim_is_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shortcut is taken for a claim with few brackets, and not for one with many."""
    import groundwire.topics.codec as codec

    walked: list[int] = []

    def counting(node: object, levels: int) -> bool:
        walked.append(levels)
        return _deeper_than(node, levels)

    monkeypatch.setattr(codec, "_deeper_than", counting)
    doc = {"claim_id": "c", "tenant_id": "t", "content": "ok", "source": "user"}
    assert not isinstance(decode_signed_claim(orjson.dumps(doc), DecodeLimits()), DecodeFailure)
    assert walked == []
    doc["metadata"] = {"a": [[{}] for _ in range(20)]}  # 42 brackets, depth 4
    assert not isinstance(decode_signed_claim(orjson.dumps(doc), DecodeLimits()), DecodeFailure)
    assert walked[:1] == [16]  # the walk ran (its recursion counts too)


@pytest.mark.parametrize(
    ("raw", "reason", "detail"),
    [
        (b'{"content": "\xff"}', DlqReason.INVALID_UTF8, "byte 13: invalid start byte"),
        (b'{"content": "\xc3"}', DlqReason.INVALID_UTF8, "byte 13: invalid continuation byte"),
        (b"\xed\xa0\x80", DlqReason.INVALID_UTF8, "byte 0: invalid continuation byte"),
    ],
)
def test_invalid_utf8_keeps_its_reason_and_detail(
    raw: bytes, reason: DlqReason, detail: str
) -> None:
    decoded = decode_signed_claim(raw, DecodeLimits())
    assert decoded == DecodeFailure(reason, detail)


def test_ascii_and_utf8_claims_both_decode() -> None:
    for content in ("plain", "Zürich 日本"):
        doc = {"claim_id": "c", "tenant_id": "t", "content": content, "source": "user"}
        decoded = decode_signed_claim(orjson.dumps(doc), DecodeLimits())
        assert not isinstance(decoded, DecodeFailure)
        assert decoded.claim.content == content
