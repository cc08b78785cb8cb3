"""Producer signatures: the canonical JSON a signature covers (RFC 8785, so producers in
other languages can sign) and the HMAC over it (docs/spec.md §Producer authentication)."""

from __future__ import annotations

import hashlib
import hmac
import json

import orjson
import pytest

from groundwire.topics.codec import DecodedClaim, DecodeLimits, decode_signed_claim
from groundwire.topics.signing import canonical_json, sign_claim, signature_for, signing_payload

SECRET = b"0123456789abcdef0123456789abcdef"


def test_rfc_8785_sample() -> None:
    """The example of RFC 8785 §3.2.2 (numbers, escapes, member order)."""
    raw = (
        '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],'
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",'
        ' "literals": [null, true, false]}'
    )
    expected = (
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
        '"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    )
    assert canonical_json(json.loads(raw)) == expected.encode("utf-8")


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (0.0, "0"),
        (-0.0, "0"),
        (1.0, "1"),
        (-1.5, "-1.5"),
        (0.1, "0.1"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (1e-7, "1e-7"),
        (1e-6, "0.000001"),
        (1.5e-7, "1.5e-7"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (9007199254740993, "9007199254740992"),  # an integer is a double too
        (123, "123"),
    ],
)
def test_numbers_are_written_as_ecmascript_does(number: float, text: str) -> None:
    assert canonical_json(number) == text.encode()


def test_members_sort_by_utf16_code_units_at_every_level() -> None:
    doc = {"\ufb01": 1, "\U0001f600": 2, "b": {"z": 1, "a": [{"y": 1, "x": 2}]}, "a": "\u00e9"}
    assert canonical_json(doc) == (
        '{"a":"\u00e9","b":{"a":[{"x":2,"y":1}],"z":1},"\U0001f600":2,"\ufb01":1}'
    ).encode("utf-8")


def test_the_payload_is_the_object_without_its_signature_whatever_its_layout() -> None:
    claim = {"tenant_id": "acme", "claim_id": "c1", "content": "x", "source": "user"}
    signed = sign_claim(claim, "k1", SECRET)
    assert signed["key_id"] == "k1" and len(signed["signature"]) == 64
    payload = signing_payload(signed)
    assert b"signature" not in payload and b'"key_id":"k1"' in payload
    expected = hmac.new(SECRET, payload, hashlib.sha256).hexdigest()
    assert signed["signature"] == expected == signature_for(SECRET, payload)
    # re-signing replaces an earlier signature
    assert sign_claim(signed, "k1", SECRET) == signed
    # what the screen stage verifies against: the same bytes from the published record,
    # whatever its member order or whitespace, unknown members included
    relaid = json.dumps(dict(reversed(list({**signed, "extra": [1.0]}.items()))), indent=2)
    decoded = decode_signed_claim(relaid.encode(), DecodeLimits())
    assert isinstance(decoded, DecodedClaim)
    assert decoded.signed_payload == signing_payload({**signed, "extra": [1]})
    unsigned = decode_signed_claim(orjson.dumps(claim), DecodeLimits())
    assert isinstance(unsigned, DecodedClaim) and unsigned.signed_payload is None
