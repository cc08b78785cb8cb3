"""The wire records' orjson writer gives pydantic's bytes, or steps aside (session 15).

`codec.dumps` must write exactly what `__pydantic_serializer__.to_json` wrote before: the
reference here is that call itself, on random records (strings with every kind of escape,
floats of every magnitude, datetimes with every kind of offset, nested metadata) and on
the cases where orjson would write something else, which must fall back to pydantic.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from pydantic import BaseModel, ValidationError

from groundwire.topics import record_json
from groundwire.topics.codec import dumps
from groundwire.topics.records import (
    Claim,
    EvidenceObject,
    EvidenceSpan,
    GroundingReport,
    HedgeReport,
    ProducerAuthReport,
    ProvenanceReport,
    RoutedResult,
    ScreenedClaim,
    SourceTurn,
    ValidationResult,
)
from groundwire.topics.vocab import (
    DedupOutcome,
    GroundingVerdict,
    HedgeAction,
    ProducerAuthOutcome,
    ReasonCode,
    ReentryReason,
    Source,
    Tier,
)


def _pydantic(model: BaseModel) -> bytes:
    return model.__pydantic_serializer__.to_json(model)


def _text(rng: random.Random) -> str:
    pools = [
        "plain words",
        'q"uo\\te/',
        "".join(chr(c) for c in range(0, 0x21)),
        "\x7f\x80\x9f\u00ad\u2028\u2029\ufeff\uffff",
        "Zürich 日本語 😀",
    ]
    return "".join(rng.choice(pools)[: rng.randrange(1, 12)] for _ in range(rng.randrange(4)))


def _float(rng: random.Random) -> float:
    roll = rng.random()
    if roll < 0.1:
        return rng.choice([0.0, -0.0, 1.0, 1e16, 1e-7, 5e-324, 1.7976931348623157e308, 2.0**53])
    if roll < 0.15:
        return rng.choice([float("inf"), float("-inf"), float("nan")])
    return rng.uniform(-1, 1) * 10.0 ** rng.randrange(-320, 300)


def _datetime(rng: random.Random) -> datetime | None:
    zones: list[Any] = [
        None,
        UTC,
        timezone(timedelta(hours=5, minutes=30)),
        timezone(timedelta(hours=-11)),
        ZoneInfo("Europe/London"),
        ZoneInfo("America/St_Johns"),
    ]
    if rng.random() < 0.2:
        return None
    micro = rng.choice([0, 500_000, rng.randrange(1_000_000)])
    moment = datetime(rng.randrange(1, 9999), rng.randrange(1, 13), 1, 12, 0, 0, micro)
    return moment.replace(tzinfo=rng.choice(zones))


def _metadata(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 2 or roll < 0.5:
        return rng.choice([None, True, 0, -(2**63), 2**63 - 1, 2.5, _text(rng)])
    if roll < 0.75:
        return [_metadata(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {_text(rng) or "k": _metadata(rng, depth + 1) for _ in range(rng.randrange(3))}


def _claim(rng: random.Random) -> Claim:
    turns = [
        SourceTurn(id=f"t{i}", text=_text(rng), source=rng.choice([None, "corpus", "user"]))
        for i in range(rng.randrange(3))
    ]
    return Claim(
        claim_id=f"c{rng.randrange(10**6)}",
        tenant_id="tenant",
        content=_text(rng) or "x",
        source=rng.choice(list(Source)),
        source_turns=turns,
        subject=rng.choice([None, _text(rng)]),
        confidence=rng.random(),
        created_at=_datetime(rng),
        metadata={"m": _metadata(rng)},
    )


def _screened(rng: random.Random) -> ScreenedClaim:
    claim = _claim(rng)
    return ScreenedClaim(
        claim=claim,
        hedge=HedgeReport(action=rng.choice(list(HedgeAction)), words=[_text(rng)]),
        provenance=ProvenanceReport(
            eligible_turn_ids=["t0"], rejections={"t1": rng.choice(list(ReentryReason))}
        ),
        grounding=rng.choice(
            [
                None,
                GroundingReport(
                    verdict=rng.choice(list(GroundingVerdict)),
                    score=rng.choice([None, _float(rng)]),
                    evidence_spans=[EvidenceSpan(turn_id="t0", start=0, end=3, text="abc")],
                    confidence_penalty=_float(rng),
                    reasoning=_text(rng),
                ),
            ]
        ),
        phantoms=[_text(rng)],
        producer_auth=ProducerAuthReport(
            outcome=rng.choice(list(ProducerAuthOutcome)), claimed_source=claim.source
        ),
        timings_ms={_text(rng): _float(rng) for _ in range(rng.randrange(4))},
        received_at=_datetime(rng),
    )


def _routed(rng: random.Random) -> RoutedResult:
    s = _screened(rng)
    return RoutedResult(
        claim=s.claim,
        validation=ValidationResult(
            tier=rng.choice(list(Tier)),
            approved=rng.random() < 0.5,
            reason=_text(rng),
            reason_code=rng.choice(list(ReasonCode)),
            dedup=rng.choice(list(DedupOutcome)),
            evidence=EvidenceObject(
                claim=s.claim.content,
                capture_time=_datetime(rng) or datetime.now(UTC),
                confidence="high",
                metadata={"claim_confidence": _float(rng), "tags": [_text(rng)]},
            ),
            similarity_score=rng.choice([None, _float(rng)]),
        ),
        hedge=s.hedge,
        provenance=s.provenance,
        grounding=s.grounding or GroundingReport(),
        similarity=rng.choice([None, _float(rng)]),
        tags=[_text(rng)],
        timings_ms=s.timings_ms,
        routed_at=datetime.now(UTC),
    )


def test_random_records_are_written_as_pydantic_writes_them() -> None:
    rng = random.Random(15)
    fast = 0
    for _ in range(1500):
        record: BaseModel = _screened(rng) if rng.random() < 0.5 else _routed(rng)
        expected = _pydantic(record)
        assert dumps(record) == expected
        try:
            assert record_json.encode(record) == expected
            fast += 1
        except record_json.Unsupported:
            pass
    assert fast > 1000  # the fast path is the one taken, not the fallback


def test_records_read_back_from_json_are_written_as_before() -> None:
    """Parsed records hold pydantic's own TzInfo and its floats, as the route stage's do."""
    rng = random.Random(16)
    read = 0
    for _ in range(300):
        record = _routed(rng)
        try:  # an infinity is written as null, which a float field refuses
            again = RoutedResult.model_validate_json(_pydantic(record))
        except ValidationError:
            continue
        assert record_json.encode(again) == _pydantic(again)
        read += 1
    assert read > 100


def _a_record() -> ScreenedClaim:
    return _screened(random.Random(3)).model_copy(update={"timings_ms": {"a": 1.5}})


def test_an_int_in_a_float_field_falls_back_to_pydantic() -> None:
    """pydantic writes 1.0 for an int a model_copy put in a float field; orjson would
    write 1."""
    base = _a_record()
    grounding = GroundingReport(score=0.5)
    record = base.model_copy(update={"grounding": grounding.model_copy(update={"score": 1})})
    with pytest.raises(record_json.Unsupported):
        record_json.encode(record)
    assert b'"score":1.0' in dumps(record)
    assert dumps(record) == _pydantic(record)
    timed = base.model_copy(update={"timings_ms": {"a": 2}})
    with pytest.raises(record_json.Unsupported):
        record_json.encode(timed)
    assert dumps(timed) == _pydantic(timed)
    # control: the same record with floats takes the fast path
    fine = base.model_copy(update={"grounding": grounding.model_copy(update={"score": 1.0})})
    assert record_json.encode(fine) == _pydantic(fine)


def test_an_offset_with_seconds_falls_back_to_pydantic() -> None:
    odd = datetime(2020, 1, 1, tzinfo=timezone(timedelta(hours=-5, seconds=7)))
    record = _a_record().model_copy(update={"received_at": odd})
    with pytest.raises(record_json.Unsupported):
        record_json.encode(record)
    assert dumps(record) == _pydantic(record)
    whole = datetime(2020, 1, 1, tzinfo=timezone(timedelta(hours=-5)))
    control = _a_record().model_copy(update={"received_at": whole})
    assert record_json.encode(control) == _pydantic(control)


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")
def test_what_orjson_refuses_is_left_to_pydantic() -> None:
    big = _a_record().model_copy(
        update={"claim": Claim(claim_id="c", tenant_id="t", content="x", source=Source.USER)}
    )
    for metadata in ({"n": 2**64}, {"s": {1, 2}}, {"b": b"x"}, {1: "x"}):
        claim = big.claim.model_copy(update={"metadata": metadata})
        record = big.model_copy(update={"claim": claim})
        with pytest.raises(record_json.Unsupported):
            record_json.encode(record)
        assert dumps(record) == _pydantic(record)
    surrogate = big.model_copy(update={"phantoms": ["\ud800"]})
    with pytest.raises(record_json.Unsupported):
        record_json.encode(surrogate)
    with pytest.raises(Exception) as raised:
        _pydantic(surrogate)
    with pytest.raises(type(raised.value)):
        dumps(surrogate)


def test_a_subclass_is_serialised_by_pydantic() -> None:
    """A field declared Claim holding a subclass: pydantic writes the declared fields
    only; the subclass is not a plain record here, so pydantic writes it."""

    class Tagged(Claim):
        extra_field: str = "not on the wire"

    base = _a_record()
    claim = Tagged(claim_id="c", tenant_id="t", content="x", source=Source.USER)
    record = base.model_copy(update={"claim": claim})
    with pytest.raises(record_json.Unsupported):
        record_json.encode(record)
    assert b"not on the wire" not in dumps(record)
    assert dumps(record) == _pydantic(record)


def test_non_plain_classes_are_not_taken() -> None:
    """A class with a serializer, an alias or a list of floats is not plain."""
    from pydantic import Field, field_serializer

    class WithSerializer(BaseModel):
        x: int = 1

        @field_serializer("x")
        def _x(self, value: int) -> int:
            return value + 1

    class WithAlias(BaseModel):
        x: int = Field(default=1, serialization_alias="y")

    class WithFloats(BaseModel):
        x: list[float] = Field(default_factory=list)

    class Fine(BaseModel):
        x: float | None = None
        when: datetime | None = None

    for cls in (WithSerializer, WithAlias, WithFloats):
        assert record_json._checks_of(cls) is None
    assert record_json._checks_of(Fine) == (("x",), (), ("when",))
    with pytest.raises(record_json.Unsupported):
        record_json.encode(Fine())  # not a wire record class at all
