"""How a producer signs a claim, so that groundwire can tell who published it.

A claim may carry `key_id` and `signature`. The signature is HMAC-SHA256, keyed with the
secret of `key_id`, over the claim's **canonical JSON**:

1. Take the claim's JSON object exactly as published (every member, including `key_id`
   and any member groundwire does not know), and remove the member `signature`.
2. Serialise it as RFC 8785 (JSON Canonicalization Scheme): object members sorted by
   their names compared as UTF-16 code units, at every level; no whitespace (separators
   `,` and `:`); strings with only the escapes JSON requires (`\\"`, `\\\\`, `\\b`, `\\f`,
   `\\n`, `\\r`, `\\t`, other characters below U+0020 as `\\u00xx` in lower case; nothing
   else escaped, non-ASCII written as itself); numbers as ECMAScript writes a double
   (`1.0` -> `1`, `1e-7`, `1e+21`, `0.000001`); `true`, `false`, `null`.
3. Encode as UTF-8. The signature is the HMAC-SHA256 of these bytes, written as 64
   lower-case hexadecimal characters.

RFC 8785 has implementations for most languages (Go, Java, JavaScript, Rust, .NET, ...),
so a producer outside Python signs with its HMAC library and a JCS library. In Python,
`sign_claim` does all of it. Verification (guards/producer_auth.py) recomputes the same
bytes from the record as received, so any edit to any member after signing (the content,
the source, a turn, the key id) makes the signature fail.
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections.abc import Mapping
from typing import Any

__all__ = [
    "SIGNATURE_FIELD",
    "canonical_json",
    "sign_claim",
    "signature_for",
    "signing_payload",
]

SIGNATURE_FIELD = "signature"
KEY_ID_FIELD = "key_id"

_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}


def _string(text: str) -> str:
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif code < 0x20:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _number(value: float) -> str:
    """A double as ECMAScript's Number::toString writes it (RFC 8785 §3.2.2.3)."""
    if not math.isfinite(value):
        raise ValueError("NaN and infinities have no JSON form")
    if value == 0:
        return "0"  # -0 too
    if value < 0:
        return "-" + _number(-value)
    # repr gives the shortest digits that round-trip, which is what ECMAScript uses.
    mantissa, _, exp_text = repr(value).partition("e")
    whole, _, frac = mantissa.partition(".")
    frac = "" if frac == "0" else frac
    digits = (whole + frac).lstrip("0")
    exponent = int(exp_text or 0) - len(frac)  # value = int(digits) * 10**exponent
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    digits = stripped
    k = len(digits)
    n = k + exponent  # value = 0.digits * 10**n
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    head = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{head}e{sign}{abs(e)}"


def _utf16_key(name: str) -> bytes:
    return name.encode("utf-16-be", "surrogatepass")


def _encode(value: Any, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, int | float):
        out.append(_number(float(value)))
    elif isinstance(value, Mapping):
        out.append("{")
        for i, name in enumerate(sorted(value, key=_utf16_key)):
            if not isinstance(name, str):
                raise TypeError("JSON object member names are strings")
            if i:
                out.append(",")
            out.append(_string(name))
            out.append(":")
            _encode(value[name], out)
        out.append("}")
    elif isinstance(value, list | tuple):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _encode(item, out)
        out.append("]")
    else:
        raise TypeError(f"{type(value).__name__} is not a JSON value")


def canonical_json(value: Any) -> bytes:
    """RFC 8785 canonical JSON of parsed JSON data (dict, list, str, int, float, bool,
    None), as UTF-8 bytes. Raises ValueError/TypeError for what JSON cannot hold."""
    out: list[str] = []
    _encode(value, out)
    return "".join(out).encode("utf-8", "strict")


def signing_payload(claim: Mapping[str, Any]) -> bytes:
    """The bytes a claim's signature covers: its canonical JSON without `signature`."""
    return canonical_json({k: v for k, v in claim.items() if k != SIGNATURE_FIELD})


def signature_for(secret: bytes, payload: bytes) -> str:
    """HMAC-SHA256 of `payload` keyed with `secret`, as 64 lower-case hex characters."""
    return hmac.new(secret, payload, hashlib.sha256).hexdigest()


def sign_claim(claim: Mapping[str, Any], key_id: str, secret: bytes) -> dict[str, Any]:
    """A copy of the claim object with `key_id` set and `signature` computed (any earlier
    signature is replaced)."""
    signed = {k: v for k, v in claim.items() if k != SIGNATURE_FIELD}
    signed[KEY_ID_FIELD] = key_id
    signed[SIGNATURE_FIELD] = signature_for(secret, signing_payload(signed))
    return signed
