"""Hostile input through the screen stage's processing function, in-process: nothing
raises, nothing is lost (docs/architecture.md: every input record produces an output and a
stage never raises on input).

Records from `tests.support.hostile` (random bytes, deep nesting, huge strings, wrong
types, unicode edge cases, 10 MB values) go through `ScreenStage.process` (decode_claim,
screen_batch, grounding, serialising the outputs) in batches of fake consumed messages.
Each record must come out exactly once: on `claims.screened` as a ScreenedClaim that
parses back and that the tier policy decides with a reason code, or on the dlq with a
reason from the closed vocabulary. 5,000 records run with the unit suite; 100,000 (with
three 10 MB values) are marked `slow` and run in the full suite (`scripts/test.sh`).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import orjson
import pytest

from groundwire.guards.factory import GuardServices, build_citation_verifier, build_grounder
from groundwire.guards.policy import determine_tier
from groundwire.streams.settings import Settings
from groundwire.streams.stages.screen import ScreenStage
from groundwire.topics import codec
from groundwire.topics.records import DlqRecord, ScreenedClaim
from groundwire.topics.vocab import DlqReason, ReasonCode
from tests.support.hostile import TEN_MB, hostile_records

BATCH = 500


class FakeMessage:
    """What the stage reads of a consumed record."""

    def __init__(self, value: bytes | None, offset: int) -> None:
        self._value = value
        self._offset = offset

    def value(self) -> bytes | None:
        return self._value

    def key(self) -> bytes | None:
        return b"fuzz-key"

    def headers(self) -> list[tuple[str, bytes]] | None:
        return None

    def topic(self) -> str:
        return "fuzz.claims"

    def partition(self) -> int:
        return 0

    def offset(self) -> int:
        return self._offset

    def error(self) -> None:
        return None


def _stage() -> ScreenStage:
    settings = Settings(metrics_port=0)
    guards = settings.guards.model_copy(deep=True)
    guards.citation.verify = False  # no network: citations are detected, not fetched
    settings = settings.model_copy(update={"guards": guards})
    verifier = build_citation_verifier(guards, GuardServices(verify_urls=False))
    return ScreenStage(settings, verifier, build_grounder(guards))


def _run(records: list[bytes]) -> tuple[Counter[str], float]:
    """Every record through the stage; returns the outcome counts and the seconds taken."""
    stage = _stage()
    screened_topic = stage.settings.topics.screened
    dlq_topic = stage.settings.topics.dlq
    outcome: dict[int, str] = {}
    counts: Counter[str] = Counter()
    started = time.perf_counter()

    async def go() -> None:
        for start in range(0, len(records), BATCH):
            batch = [
                FakeMessage(v, start + i) for i, v in enumerate(records[start : start + BATCH])
            ]
            outputs = await stage.process(batch)
            assert len(outputs) == len(batch)
            for out in outputs:
                if out.topic == dlq_topic:
                    record = DlqRecord.model_validate_json(out.value)
                    headers = dict(out.headers or ())
                    assert headers["reason"] == record.reason.value.encode()
                    assert record.reason in DlqReason.__members__.values()
                    if len(records[record.offset]) >= TEN_MB:
                        assert record.reason is DlqReason.TOO_LARGE
                        assert len(out.value) < stage.settings.max_output_bytes
                    offset, label = record.offset, f"dlq:{record.reason.value}"
                else:
                    assert out.topic == screened_topic
                    screened = ScreenedClaim.model_validate_json(out.value)
                    headers = dict(out.headers or ())
                    offset = int(headers["origin"].decode().rsplit(":", 1)[1])
                    decision = determine_tier(screened, cfg=stage.settings.guards)
                    assert decision.reason_code in ReasonCode.__members__.values()
                    label = f"screened:{decision.tier.value}"
                assert offset not in outcome, f"record {offset} came out twice"
                outcome[offset] = label
                counts[label] += 1
        await stage.close()

    asyncio.run(go())
    elapsed = time.perf_counter() - started
    assert sorted(outcome) == list(range(len(records))), "every record has one outcome"
    return counts, elapsed


def _report(n: int, counts: Counter[str], elapsed: float) -> None:
    print(f"\n{n} hostile records in {elapsed:.1f}s ({elapsed / n * 1e6:.0f} us/record)")
    for label, count in sorted(counts.items()):
        print(f"  {label:32s} {count}")


def test_5000_hostile_records_each_get_exactly_one_outcome() -> None:
    records = hostile_records(5_000, seed=1, huge=1)
    counts, elapsed = _run(records)
    _report(len(records), counts, elapsed)
    # The mix exercises both sides and the main refusals.
    assert sum(c for k, c in counts.items() if k.startswith("screened:")) > 1_000
    for reason in ("not_json", "invalid_utf8", "not_object", "invalid_claim", "too_large"):
        assert counts[f"dlq:{reason}"] > 0, reason
    assert counts["dlq:too_deep"] + counts["dlq:not_json"] > 0


@pytest.mark.slow
def test_100000_hostile_records_each_get_exactly_one_outcome() -> None:
    records = hostile_records(100_000, seed=2, huge=3)
    counts, elapsed = _run(records)
    _report(len(records), counts, elapsed)
    assert sum(counts.values()) == 100_000


def test_a_10_mb_value_is_refused_without_being_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """`too_large` is decided from the length alone: the same answer for a 10 MB value
    that would take long to parse as for one that is not JSON at all. The JSON parser the
    decoder uses is watched, so the check is that it never sees the value, not how long
    the refusal took."""
    parsed_sizes: list[int] = []
    real_loads = orjson.loads

    def watched_loads(data: bytes | str) -> object:
        parsed_sizes.append(len(data))
        return real_loads(data)

    monkeypatch.setattr(codec.orjson, "loads", watched_loads)
    stage = _stage()
    for filler in (b"[", b"{", b"a", b"\xff"):
        value = filler * TEN_MB
        (out,) = asyncio.run(stage.process([FakeMessage(value, 0)]))
        record = real_loads(out.value)
        assert record["reason"] == "too_large"
        assert record["raw_b64"] is None and len(out.value) < 100_000  # a preview only
    assert not [n for n in parsed_sizes if n >= TEN_MB], parsed_sizes
