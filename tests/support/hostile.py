"""Hostile records for the fuzz tests: what a broken or malicious producer could publish.

`hostile_records(n, seed)` returns `n` record values, round-robin over the kinds below so
that every kind is in every run: random bytes, text that is not JSON or not an object,
deep nesting, huge strings, wrong types in every field, unicode edge cases (lone
surrogates, bidi and zero-width characters, NFKC expanders, combining-mark towers, markup
bombs), truncated and byte-flipped claims, and well-formed claims with hostile content.
A record that decodes to a claim has the claim id `fz<token>-<i>` (unique per record), so
a test can find each record's outcome. `huge=k` puts k values of 10 MB in the run.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

Maker = Callable[[random.Random, str], bytes]

TEN_MB = 10 * 1024 * 1024

_SOURCES = ["user", "ai_synthesis", "conversation", "documentation", "chat", "model", "adr"]
_WEIRD_VALUES: list[object] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    10**30,
    -(10**30),
    1e308,
    "",
    " ",
    "x" * 300,
    [],
    [1, "a", None],
    {},
    {"a": {"b": {"c": []}}},
    "\u202eevil",
    "a\u0000b",
    "2026-13-45T25:61:61Z",
    "9999-12-31T23:59:59+14:00",
    "0001-01-01T00:00:00-23:59",
]
_FIELDS = [
    "claim_id",
    "tenant_id",
    "user_id",
    "content",
    "memory_type",
    "source",
    "source_turns",
    "subject",
    "predicate",
    "object",
    "confidence",
    "created_at",
    "metadata",
]


def _hostile_text(rng: random.Random, size: int) -> str:
    """Text built from the unicode and markup edge cases the detectors see."""
    pieces: list[Callable[[], str]] = [
        lambda: "".join(chr(rng.randint(0x20, 0x2FFFF)) for _ in range(rng.randint(1, 40))),
        lambda: "a" + "".join(chr(rng.randint(0x300, 0x36F)) for _ in range(rng.randint(1, 400))),
        lambda: "\u202e\u2066" + "I think" + "\u2069\u202c",
        lambda: "th" + "\u200b\u200c\u200d\u2060\ufeff\u00ad" * rng.randint(1, 50) + "ink",
        lambda: "\u0406 th\u0456nk \u0399 \u0430\u0435\u043e\u0440",
        lambda: "\ufdfa" * rng.randint(1, 300),  # NFKC: 18 characters each
        lambda: "\u3300" * rng.randint(1, 300),
        lambda: "<b>" * rng.randint(1, 500) + "maybe" + "</b>" * rng.randint(0, 500),
        lambda: "*" * rng.randint(1, 500) + "_" * rng.randint(1, 500),
        lambda: "&amp;" * rng.randint(1, 300) + "&#8203;&nbsp;&#x10FFFF;&#0;&bogus;",
        lambda: "`" * rng.randint(1, 300) + "~~" * rng.randint(1, 300) + "\\" * 50,
        lambda: "https://" * rng.randint(1, 200) + "://" * rng.randint(1, 200),
        lambda: "x" * rng.randint(1, 3000) + "://" + "y" * rng.randint(0, 3000),
        lambda: "\u3000\t\n\r\u00a0\u2009\u2028\u2029\x85" * rng.randint(1, 200),
        lambda: "".join(chr(rng.randint(0, 31)) for _ in range(rng.randint(1, 50))),
        lambda: "\U0001f469\u200d\U0001f4bb" * rng.randint(1, 100),
        lambda: "I  think the server MAY time out in about an hour, or a day or two",
        lambda: "Per ADR-" + str(rng.randint(0, 10**9)) + " see #" + "9" * rng.randint(1, 40),
        lambda: "deadbeef" * rng.randint(1, 200) + " 0x" + "f" * 500,
        lambda: "\u0130" * rng.randint(1, 200) + "\u1e9e\u00df\ufb03",
        lambda: "<!--" * rng.randint(1, 100) + "-->" * rng.randint(0, 100),
        lambda: "about " * rng.randint(1, 500) + "or two " * rng.randint(1, 200),
        lambda: "may " * rng.randint(1, 500) + "should be five " * rng.randint(1, 100),
    ]
    out: list[str] = []
    total = 0
    while total < size:
        piece = rng.choice(pieces)()
        out.append(piece)
        total += len(piece)
    return "".join(out)[: max(size, 1)]


def _claim(rng: random.Random, claim_id: str, content: str | None = None) -> dict[str, object]:
    doc: dict[str, object] = {
        "claim_id": claim_id,
        "tenant_id": f"t{rng.randint(0, 20)}",
        "content": content if content is not None else _hostile_text(rng, rng.randint(1, 400)),
        "source": rng.choice(_SOURCES),
        "memory_type": rng.choice(["fact", "preference", "decision", "x" * 64]),
    }
    if rng.random() < 0.6:
        doc["source_turns"] = [
            {
                "id": rng.choice(["k", "chat:1", "doc-2", f"t{j}"]) + str(j),
                "text": _hostile_text(rng, rng.randint(0, 600)),
                "source": rng.choice(["corpus", "user", "model", "documentation"]),
            }
            for j in range(rng.randint(0, 5))
        ]
    if rng.random() < 0.3:
        doc["created_at"] = rng.choice(
            ["2026-01-01T00:00:00Z", "9999-12-31T23:59:59+14:00", "0001-01-01T00:00:00-23:59"]
        )
    if rng.random() < 0.3:
        doc["confidence"] = rng.choice([0.0, 1.0, 0.5, 5e-324])
    return doc


def _encode(rng: random.Random, doc: object) -> bytes:
    """JSON as a producer might write it: escaped or raw UTF-8 (lone surrogates then make
    invalid UTF-8, as a buggy encoder would)."""
    if rng.random() < 0.5:
        return json.dumps(doc, ensure_ascii=True).encode("ascii")
    return json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _random_bytes(rng: random.Random, cid: str) -> bytes:
    return rng.randbytes(rng.randint(0, 300))


def _random_text(rng: random.Random, cid: str) -> bytes:
    return _hostile_text(rng, rng.randint(1, 300)).encode("utf-8", "surrogatepass")


def _not_an_object(rng: random.Random, cid: str) -> bytes:
    return _encode(rng, rng.choice([[_claim(rng, cid)], "claim", 42, None, True, 1.5e300]))


def _deep(rng: random.Random, cid: str) -> bytes:
    depth = rng.choice([17, 64, 1000, 5000, 100_000])
    if rng.random() < 0.5:
        return b"[" * depth + b"]" * depth
    head = _encode(rng, _claim(rng, cid))[:-1]
    return head + b',"metadata":' + b'{"n":' * depth + b"1" + b"}" * depth + b"}"


def _wrong_type(rng: random.Random, cid: str) -> bytes:
    doc = _claim(rng, cid)
    for _ in range(rng.randint(1, 3)):
        doc[rng.choice(_FIELDS)] = rng.choice(_WEIRD_VALUES)
    if rng.random() < 0.3:
        doc["source_turns"] = [rng.choice(_WEIRD_VALUES) for _ in range(rng.randint(1, 4))]
    return _encode(rng, doc)


def _huge(rng: random.Random, cid: str) -> bytes:
    doc = _claim(rng, cid)
    where = rng.choice(["content", "turn", "metadata", "claim_id", "many_turns", "subject"])
    size = rng.choice([16_000, 16_385, 70_000, 300_000, 600_000])
    if where == "content":
        doc["content"] = "word " * (size // 5)
    elif where == "turn":
        doc["source_turns"] = [{"id": "k", "text": "y " * (size // 2), "source": "corpus"}]
    elif where == "metadata":
        doc["metadata"] = {"pad": "z" * size}
    elif where == "claim_id":
        doc["claim_id"] = cid + "x" * size
    elif where == "many_turns":
        doc["source_turns"] = [{"id": str(j), "text": ""} for j in range(rng.choice([257, 5000]))]
    else:
        doc["subject"] = "s" * size
    return _encode(rng, doc)


def _unicode_claim(rng: random.Random, cid: str) -> bytes:
    """A well-formed claim (usually) whose text is made of unicode edge cases."""
    return _encode(rng, _claim(rng, cid, _hostile_text(rng, rng.randint(1, 3000))))


def _plain_claim(rng: random.Random, cid: str) -> bytes:
    content = rng.choice(
        [
            "The payments service writes its ledger to Postgres",
            "I  think Redis is the cache we use",
            "The client MAY retry the request",
            "A full reindex takes around a minute",
            "The retry count should be five",
            "Per ADR-7 the pool is 32 connections, see https://example.invalid/x",
        ]
    )
    return _encode(rng, _claim(rng, cid, content))


def _mangled(rng: random.Random, cid: str) -> bytes:
    raw = bytearray(_encode(rng, _claim(rng, cid)))
    action = rng.choice(["truncate", "flip", "bom", "nul", "dup"])
    if action == "truncate":
        return bytes(raw[: rng.randint(0, len(raw))])
    if action == "flip":
        for _ in range(rng.randint(1, 5)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw)
    if action == "bom":
        return b"\xef\xbb\xbf" + bytes(raw)
    if action == "nul":
        return bytes(raw) + b"\x00"
    return b'{"content": 5, ' + bytes(raw[1:])  # a duplicate key, the last one wins


KINDS: tuple[Maker, ...] = (
    _random_bytes,
    _random_text,
    _not_an_object,
    _deep,
    _wrong_type,
    _huge,
    _unicode_claim,
    _plain_claim,
    _mangled,
    _unicode_claim,
    _plain_claim,
    _wrong_type,
)


def hostile_records(n: int, seed: int = 0, *, token: str = "", huge: int = 0) -> list[bytes]:
    """`n` hostile record values (deterministic for a seed); `huge` of them are 10 MB."""
    rng = random.Random(seed)
    records = [KINDS[i % len(KINDS)](rng, f"fz{token}-{i}") for i in range(n)]
    for k in range(min(huge, n)):
        at = (k + 1) * n // (huge + 1)
        filler = rng.choice([b"a", b"\xff", b"{", b"["])
        records[at] = b'{"claim_id":"' + f"fz{token}-{at}".encode() + b'","content":"'
        records[at] += filler * (TEN_MB - len(records[at]))
    return records


def claim_id_of(index: int, token: str = "") -> str:
    return f"fz{token}-{index}"
