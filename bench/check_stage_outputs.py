"""Golden-output check for performance work on the screen and route stages' own code.

    python bench/check_stage_outputs.py --record [GOLDEN] [--data PATH]  # before
    python bench/check_stage_outputs.py [GOLDEN] [--data PATH]           # after

Runs `ScreenStage.process` and then `RouteStage.process` in-process, with in-memory
stand-ins for the Kafka messages (as bench/bench_stages.py does), an in-memory dedup
index, citation verification off and no claim_id ledger, in batches of
`Settings.batch_size`, and writes one JSON line per output record the stages return:
pass, stage, topic, key, headers and value, in the order they were returned. The route
stage reads exactly what the screen stage wrote (value, key and headers, as Kafka would
deliver them). Every claim of the labelled data file (`--data`, default: the synthetic
sample in bench/data/; use a large real set such as the one bench/data/README.md
describes) goes through in two shapes:

* `bench`: exactly bench/bench_pipeline.py's `claim()` (user ids, three sources, one
  tenant per cycle of the corpus);
* `rich`: the same content and turns with the claim's other fields varied by position
  (tenants, user ids, every `Source`, subject / predicate / object, confidence, created_at
  in several forms, metadata with nesting, unicode and numbers, signatures that verify,
  do not verify or name an unknown key, citations and file / field names in the content,
  non-ASCII, quotes, control and line-separator characters, long content) and the turns
  varied too (created_at, other or missing source tags, reserved-prefix ids, template
  residue, repeated ids, no turns);

with records the stages must refuse mixed in at fixed positions: for the screen stage
(empty, not UTF-8, not JSON, not an object, invalid claims, too deep, too large, too many
turns) and for the route stage (not JSON, invalid screened records, a screened record of
an older screen worker: legacy "reason:detail" provenance rejections, no origin header,
an unknown field).

Three passes: `default` (the shipped settings: grounding in the screen stage, producer
authentication not enforced: bench/bench_stages.py's setup), `route-grounding`
(grounding in the route stage, one producer key configured so unsigned trusted sources
are downgraded, outputs limited to `OUTPUT_LIMIT` bytes so long claims are dead-lettered
as output_too_large by either stage) and `strict` (the key configured, mode strict: such
claims are dead-lettered as unauthenticated_source).

Normalised (and nothing else; the rest of every value is compared byte for byte):

* the values of `received_at`, `routed_at` and `noted_at` (wall-clock stamps of the
  batch), wherever these keys appear, and every other occurrence of the same timestamp
  string in the same record (the evidence object's `capture_time` is the route stage's
  clock when the claim has no `created_at`) become "<now>";
* the numbers inside `timings_ms` become 0 (the keys, their order and count are kept);
* the size in an output_too_large dlq record's detail ("the routed record would be N
  bytes") becomes "<n>": the refused record held the two fields above, whose length
  varies with the clock (a float's digits, a timestamp's microseconds).

`--record` saves the golden file (default /tmp/gold/stages.jsonl); without it the current
output is compared byte for byte and the first differing lines are printed. Exit status
1 on any difference.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.bench_pipeline import CORPUS, claim, load_corpus  # noqa: E402
from groundwire.guards.factory import build_grounder, build_validator  # noqa: E402
from groundwire.streams.settings import Settings  # noqa: E402
from groundwire.streams.stages import RouteStage, ScreenStage  # noqa: E402
from groundwire.topics.signing import sign_claim  # noqa: E402
from groundwire.topics.vocab import Source  # noqa: E402

DEFAULT_DATA = REPO / "bench" / "data" / "grounding-sample.jsonl"
GOLDEN = Path("/tmp/gold/stages.jsonl")
SECRET = "check-stage-outputs-secret-0123456789"
KEY_ID = "check-key"
MALFORMED_EVERY = 37  # one refused record after every 37 claims (mixed batches)
# The output limit of the route-grounding pass, and how far every record must stay from
# it. A record's length varies by tens of bytes from run to run (the digits of its
# timings, a timestamp's microseconds), so a record within that of the limit was
# dead-lettered in some runs and not in others (1 run in ~25 at 16,000, where a screened
# record sat a few bytes under it). 14,100 leaves the dev file's records >= 228 bytes
# away and still refuses some claims in each stage; `_check_margin` stops the check
# when other data puts a record nearer.
OUTPUT_LIMIT = 14_100
OUTPUT_MARGIN = 150


class _Message:
    """Just the Message methods the stages call."""

    def __init__(
        self,
        value: bytes | None,
        key: bytes | None,
        headers: Sequence[tuple[str, bytes]] = (),
        topic: str = "claims",
        offset: int = 0,
    ) -> None:
        self._value, self._key, self._headers = value, key, tuple(headers)
        self._topic, self._offset = topic, offset

    def value(self) -> bytes | None:
        return self._value

    def key(self) -> bytes | None:
        return self._key

    def headers(self) -> list[tuple[str, bytes]] | None:
        return list(self._headers) or None

    def topic(self) -> str:
        return self._topic

    def partition(self) -> int:
        return 3

    def offset(self) -> int:
        return self._offset


_SOURCES = [s.value for s in Source]
_CREATED = [
    None,
    "2024-05-06T07:08:09Z",
    "2024-05-06T07:08:09.123456+02:00",
    "2024-05-06T07:08:09",
    1_700_000_000,
    "2031-01-01T00:00:00Z",
    "2024-02-29T23:59:59.5-05:30",
]
_CONFIDENCE: list[Any] = [None, 0.5, 1, 0.0, 0.123456789, 1.0, 1e-7]
_EXTRA_CONTENT = [
    "",
    " Per ADR-3, see https://example.com/docs/x?a=1&b=2.",
    " The retry_policy.py file sets max_retries and maxRetries via --timeout; `name` calls"
    " retry() in src/worker/retry_policy.py.",
    ' Zürich — ✓ 日本語 "quoted" back\\slash \u2028 line \u2029 tab\tend \u0001 ctl.',
    " Fixed in commit abc1234def, issue #42.",
    " 😀 emoji and \ud7ff and \u00ad soft hyphen.",
]


def _turns(i: int, turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = [dict(t) for t in turns]
    k = i % 9
    if k == 1 and out:
        out[0]["created_at"] = "2024-01-02T03:04:05Z"
    elif k == 2:
        out.append(
            {"id": "chat:7", "text": "an earlier answer of the assistant", "source": "corpus"}
        )
    elif k == 3 and out:
        out[0]["source"] = "user"
    elif k == 4 and out:
        del out[0]["source"]
        out.append({"id": "t-sig", "text": "(assistant) citations: [p1#1] yes", "source": "corpus"})
    elif k == 5 and out:
        out[0]["created_at"] = "2030-01-01T00:00:00+00:00"
        out.append(dict(out[0], id=out[0]["id"]))  # a repeated id
    elif k == 6:
        out = []
    elif k == 7 and out:
        out[0]["source"] = " Corpus "
        out.append({"id": "CHAT:8", "text": "x", "source": "model"})
    elif k == 8 and out:
        out[0]["extra_turn_field"] = {"ignored": True}
    return out


def _rich(i: int, row: dict[str, Any]) -> bytes:
    """The row's content and turns with the claim's other fields varied by position."""
    content = row["content"] + _EXTRA_CONTENT[i % len(_EXTRA_CONTENT)]
    if i % 31 == 0:
        content += " long" + " padding words" * (500 + 150 * (i % 5))
    doc: dict[str, Any] = {
        "claim_id": f"rich-{i}",
        "tenant_id": f"tenant-{i % 7}",
        "content": content,
        "source": _SOURCES[i % len(_SOURCES)],
        "source_turns": _turns(i, row["source_turns"]),
        "label": row.get("label"),
    }
    if i % 4:
        doc["user_id"] = "" if i % 4 == 1 else f"user-{i % 50}"
    if i % 5 == 0:
        doc["memory_type"] = "preference"
    if i % 4 == 0:
        doc.update(subject=f"user-{i % 50}", predicate="prefers", object="tea ☕")
    conf = _CONFIDENCE[i % len(_CONFIDENCE)]
    if conf is not None:
        doc["confidence"] = conf
    created = _CREATED[i % len(_CREATED)]
    if created is not None:
        doc["created_at"] = created
    m = i % 5
    if m == 1:
        doc["metadata"] = {"sent_ns": 0}
    elif m == 2:
        doc["metadata"] = {
            "nested": {"a": [1, 2.5, None, True, -0.0, 1e300], "ü": "ß\u2028"},
            "big": 2**62,
            "neg": -17,
        }
    elif m == 3:
        doc["metadata"] = {}
    s = i % 11
    if s == 0:
        doc = sign_claim(doc, KEY_ID, SECRET.encode())
    elif s == 3:
        doc = sign_claim(doc, KEY_ID, b"not-the-secret-at-all-0123456789")
    elif s == 6:
        doc.update(key_id="nobody", signature="ab" * 32)
    elif s == 9:
        doc.update(key_id=KEY_ID, signature="not hex")
    return orjson.dumps(doc)


def _screen_malformed() -> list[bytes | None]:
    base = {"claim_id": "bad", "tenant_id": "t", "content": "x", "source": "user"}
    deep: Any = "leaf"
    for _ in range(20):
        deep = {"d": deep}
    return [
        None,
        b"",
        b"\xff\xfe not utf-8",
        b"not json",
        b"[1, 2]",
        b'"a string"',
        b'{"claim_id": "x"}',
        orjson.dumps(dict(base, confidence=True)),
        orjson.dumps(dict(base, confidence="0.5")),
        orjson.dumps(dict(base, claim_id=" leading-space")),
        orjson.dumps(dict(base, claim_id="zero\u200bwidth")),
        orjson.dumps(dict(base, source="oracle")),
        orjson.dumps(dict(base, content="")),
        orjson.dumps(dict(base, created_at="yesterday")),
        orjson.dumps(dict(base, metadata=deep)),
        orjson.dumps(dict(base, content="y" * 20_000)),
        orjson.dumps(dict(base, source_turns=[{"id": f"t{k}", "text": "z"} for k in range(300)])),
        orjson.dumps(dict(base, metadata={"pad": "m" * 20_000})),
        orjson.dumps(dict(base, source_turns=[{"id": "", "text": "empty id"}])),
        orjson.dumps(dict(base, source_turns=[{"id": "ok", "text": "z" * 70_000}])),
        b"{" + b'"pad": "' + b"p" * 600_000 + b'"}',
        orjson.dumps(dict(base, user_id=None)),
    ]


def _route_malformed(sample: dict[str, Any]) -> list[tuple[bytes, tuple[tuple[str, bytes], ...]]]:
    """Records the route stage must refuse or read as an older screen worker wrote them;
    built from a real screened record with its clock fields fixed."""
    doc = dict(sample, received_at="2024-01-01T00:00:00Z", timings_ms={"hedge": 0.5})
    legacy = dict(
        doc,
        provenance={
            "eligible_turn_ids": [],
            "rejections": {"chat:7": "reserved_prefix:chat:", "x": "source_not_allowed:user"},
        },
    )
    origin = (("origin", b"claims:9:99"),)
    return [
        (b"", origin),
        (b"not json", origin),
        (b"[]", origin),
        (b'{"claim": {}}', origin),
        (orjson.dumps(dict(doc, hedge={"action": "shout"})), origin),
        (orjson.dumps(dict(doc, claim_id="extra")), origin),
        (orjson.dumps(legacy), origin),
        (orjson.dumps(dict(doc, future_field=[1, 2])), ()),
        (orjson.dumps(dict(doc, grounding=None)), origin),
    ]


_TS = re.compile(rb'"(?:received_at|routed_at|noted_at)":"([^"\\]*)"')
_TIMINGS = re.compile(rb'"timings_ms":\{([^{}]*)\}')
_NUMBER = re.compile(rb'("(?:[^"\\]|\\.)*":)-?[0-9][0-9.eE+-]*')
_OVERSIZE = re.compile(rb"(record would be )[0-9]+( bytes, limit )")


def normalise(value: bytes) -> bytes:
    """The record with only its wall-clock values replaced (see the module docstring)."""
    stamps = set(_TS.findall(value))
    for stamp in sorted(stamps, key=len, reverse=True):
        value = value.replace(b'"' + stamp + b'"', b'"<now>"')
    value = _TIMINGS.sub(
        lambda m: b'"timings_ms":{' + _NUMBER.sub(rb"\g<1>0", m.group(1)) + b"}", value
    )
    if value.startswith(b'{"reason":"output_too_large"'):
        value = _OVERSIZE.sub(rb"\g<1><n>\g<2>", value, count=1)
    return value


def _text(raw: bytes | None) -> str | None:
    if raw is None:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return "hex:" + raw.hex()


def _line(pass_name: str, stage: str, out: Any) -> str:
    headers = [
        [name, _text(v if isinstance(v, bytes) else str(v).encode())] for name, v in out.headers
    ]
    doc = {
        "pass": pass_name,
        "stage": stage,
        "topic": out.topic,
        "key": _text(out.key),
        "headers": headers,
        "value": _text(normalise(out.value) if out.value is not None else None),
    }
    return orjson.dumps(doc).decode()


_REFUSED_SIZE = re.compile(rb"record would be ([0-9]+) bytes, limit ")


def _size(out: Any) -> int | None:
    """The length of a stage's output record, or of the record it refused as too large."""
    value = out.value or b""
    if value.startswith(b'{"reason":"output_too_large"'):
        m = _REFUSED_SIZE.search(value)
        return int(m.group(1)) if m else None
    return len(value) if out.topic.endswith(("screened", "approved", "review", "blocked")) else None


def _check_margin(sizes: list[int]) -> None:
    near = [n for n in sizes if abs(n - OUTPUT_LIMIT) < OUTPUT_MARGIN]
    if near:
        raise SystemExit(
            f"a record of {near[0]} bytes is within {OUTPUT_MARGIN} bytes of the output limit "
            f"({OUTPUT_LIMIT}): whether it is refused would vary between runs; choose another "
            "OUTPUT_LIMIT for this data"
        )


def _settings(pass_name: str) -> Settings:
    guards: dict[str, Any] = {"dedup": {"backend": "memory"}, "citation": {"verify": False}}
    extra: dict[str, Any] = {}
    if pass_name != "default":
        guards["producer_auth"] = {
            "keys": {KEY_ID: ["user", "documentation"]},
            "secrets": {KEY_ID: SECRET},
            "mode": "strict" if pass_name == "strict" else "downgrade",
        }
    if pass_name == "route-grounding":
        extra = {"grounding_stage": "route", "max_output_bytes": OUTPUT_LIMIT}
    return Settings(worker_id="check-worker", metrics_port=0, guards=guards, **extra)


async def _pass(pass_name: str, rows: list[dict[str, Any]]) -> list[str]:
    settings = _settings(pass_name)
    grounder = build_grounder(settings.guards) if settings.grounding_stage == "screen" else None
    screen = ScreenStage(settings, None, grounder)
    route = RouteStage(settings, build_validator(settings.guards))
    values: list[bytes | None] = []
    if pass_name == "default":
        values.extend(claim(i, "check") for i in range(len(rows)))
    values.extend(_rich(i, row) for i, row in enumerate(rows))
    bad = _screen_malformed()
    mixed: list[bytes | None] = []
    for i, v in enumerate(values):
        mixed.append(v)
        if i % MALFORMED_EVERY == MALFORMED_EVERY - 1 and bad:
            mixed.append(bad.pop(0))
    mixed.extend(bad)
    messages = [_Message(v, b"tenant", (), "claims", i) for i, v in enumerate(mixed)]
    batch = settings.batch_size
    lines: list[str] = []
    sizes: list[int] = []
    screened: list[_Message] = []
    for i in range(0, len(messages), batch):
        for out in await screen.process(messages[i : i + batch]):
            lines.append(_line(pass_name, "screen", out))
            if (size := _size(out)) is not None:
                sizes.append(size)
            if out.topic == settings.topics.screened:
                offset = len(screened)
                screened.append(_Message(out.value, out.key, out.headers, out.topic, offset))
    sample = orjson.loads(next(m.value() for m in screened if m.value()) or b"{}")
    for k, (value, headers) in enumerate(_route_malformed(sample)):
        at = min(len(screened), 50 + k * 211)
        screened.insert(
            at, _Message(value, b"tenant-x", headers, settings.topics.screened, 10**6 + k)
        )
    for i in range(0, len(screened), batch):
        for out in await route.process(screened[i : i + batch]):
            lines.append(_line(pass_name, "route", out))
            if (size := _size(out)) is not None:
                sizes.append(size)
    await screen.close()
    await route.close()
    if settings.max_output_bytes == OUTPUT_LIMIT:
        _check_margin(sizes)
    return lines


async def _all(path: Path) -> list[str]:
    load_corpus(path)
    rows = list(CORPUS)
    lines: list[str] = []
    for pass_name in ("default", "route-grounding", "strict"):
        lines.extend(await _pass(pass_name, rows))
    return lines


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("golden", nargs="?", type=Path, default=GOLDEN, help=f"default {GOLDEN}")
    ap.add_argument("--record", action="store_true", help="write the golden file")
    ap.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help="JSONL of claims with source turns (default: the synthetic sample in bench/data/)",
    )
    args = ap.parse_args(argv)
    if not args.data.is_file():
        ap.error(f"--data {args.data}: no such file (see bench/data/README.md)")
    golden = args.golden
    lines = asyncio.run(_all(args.data))
    text = "\n".join(lines) + "\n"
    if args.record:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
        print(f"recorded {len(lines)} lines to {golden}")
        return 0
    want = golden.read_text(encoding="utf-8")
    if want == text:
        print(f"identical: {len(lines)} lines match {golden}")
        return 0
    old = want.split("\n")[:-1]  # not splitlines(): values hold U+2028 and U+2029
    diffs = [(i, a, b) for i, (a, b) in enumerate(zip(old, lines, strict=False)) if a != b]
    print(f"DIFFERENT: {len(diffs)} lines differ ({len(old)} golden, {len(lines)} now)")
    for i, a, b in diffs[:5]:
        print(f"line {i}:\n  golden: {a[:600]}\n  now:    {b[:600]}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
