"""The hot path reads and makes records with the models' validators called directly:
`Claim.__pydantic_validator__.validate_python` (codec.py), `ScreenedClaim
.__pydantic_validator__.validate_json` (the route stage), and `validate_python` of a dict
for EvidenceObject, ValidationResult, RoutedResult, ScreenedClaim and ProducerAuthReport,
instead of `model_validate`, `model_validate_json` or `Model(**fields)`: the same
validator behind a Python wrapper. These differential tests hold that to the letter, over
valid records and seeded mutations of them: the same model (values, their types, the
fields given) for what validates, the same error text for what does not. They fail if a
model grows an `__init__` (or anything else the wrapper does) that the validator skips."""

from __future__ import annotations

import copy
import random
from datetime import UTC, datetime
from typing import Any

import orjson
import pytest
from pydantic import BaseModel, ValidationError

from groundwire.topics.codec import DecodedClaim, DecodeFailure, DecodeLimits, decode_signed_claim
from groundwire.topics.records import (
    CitationReport,
    Claim,
    EvidenceObject,
    GroundingReport,
    HedgeReport,
    ProducerAuthReport,
    ProvenanceReport,
    RoutedResult,
    ScreenedClaim,
    ValidationResult,
)
from groundwire.topics.vocab import (
    CitationType,
    DedupOutcome,
    DlqReason,
    ProducerAuthAction,
    ProducerAuthOutcome,
    ReasonCode,
    Source,
    Tier,
)

_VALID_CLAIM: dict[str, Any] = {
    "claim_id": "c-1",
    "tenant_id": "acme",
    "user_id": "u-7",
    "content": "The deploy moved to Thursday.",
    "memory_type": "fact",
    "source": "conversation",
    "source_turns": [
        {"id": "t1", "text": "We moved the deploy to Thursday.", "source": "user"},
        {"id": "t2", "text": "ok", "created_at": "2026-11-28T03:55:53.055830Z"},
    ],
    "subject": "deploy",
    "confidence": 0.75,
    "created_at": "2026-11-28T03:55:53+02:00",
    "metadata": {"n": 1, "f": 2.5, "l": [1, "x", None], "d": {"k": True}},
}

# Values that some fields take and others refuse (or coerce): the validators' edges.
_ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -3,
    1.0,
    0.5,
    1.5,
    -0.0,
    2**64 - 1,
    "",
    " ",
    "x",
    "0.5",
    "true",
    "a\n",
    "a b",
    " a",
    "a ",
    "a\u200bb",
    "\u202e",
    "é",
    "x" * 300,
    "2026-11-28",
    "2026-11-28T03:55:53",
    "2026-11-28 03:55:53Z",
    "2026-11-28T03:55:53.1234567Z",
    "2026-11-28T03:55:53-05:30",
    "1764302153",
    "user",
    "ai_synthesis",
    "USER",
    [],
    ["t"],
    {},
    {"id": "t"},
    {"id": "t", "text": 3},
]


def _mutations(rng: random.Random, doc: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    for _ in range(rng.randrange(1, 4)):
        roll = rng.random()
        fields = [*Claim.model_fields, "extra_field"]
        if roll < 0.2 and out:
            out.pop(rng.choice(list(out)), None)
        elif roll < 0.75:
            out[rng.choice(fields)] = rng.choice(_ODD_VALUES)
        else:
            turns = out.get("source_turns")
            if isinstance(turns, list) and turns and isinstance(turns[0], dict):
                turn = turns[rng.randrange(len(turns))]
                if isinstance(turn, dict):
                    key = rng.choice(["id", "text", "source", "created_at", "other"])
                    turn[key] = rng.choice(_ODD_VALUES)
    return out


def _claims(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    docs = [copy.deepcopy(_VALID_CLAIM)]
    minimal = {k: _VALID_CLAIM[k] for k in ("claim_id", "tenant_id", "content", "source")}
    docs.append(minimal)
    docs += [_mutations(rng, rng.choice([_VALID_CLAIM, minimal])) for _ in range(n)]
    return docs


def _same_model(a: BaseModel, b: BaseModel) -> None:
    """Equal as pydantic compares them, and alike in what equality does not look at."""
    assert type(a) is type(b)
    assert a == b
    assert a.model_fields_set == b.model_fields_set
    assert a.model_dump_json() == b.model_dump_json()
    assert a.model_dump(exclude_unset=True) == b.model_dump(exclude_unset=True)
    for name in type(a).model_fields:
        x, y = getattr(a, name), getattr(b, name)
        assert type(x) is type(y), name
        if isinstance(x, BaseModel):
            _same_model(x, y)
        elif isinstance(x, list):
            for p, q in zip(x, y, strict=True):
                assert type(p) is type(q), name
                if isinstance(p, BaseModel):
                    _same_model(p, q)
        elif hasattr(x, "tzinfo"):
            assert type(x.tzinfo) is type(y.tzinfo), name


def _expected_detail(exc: ValidationError) -> str:
    """The dlq detail codec.py writes for a claim pydantic refuses."""
    problems = "; ".join(
        f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}"
        for err in exc.errors()[:10]
    )
    return problems[:1000]


def test_decoding_a_claim_matches_model_validate() -> None:
    limits = DecodeLimits()
    accepted = refused = 0
    for doc in _claims(1500, seed=16):
        got = decode_signed_claim(orjson.dumps(doc), limits)
        try:
            want = Claim.model_validate(doc)
        except ValidationError as exc:
            refused += 1
            assert isinstance(got, DecodeFailure), doc
            assert got.reason is DlqReason.INVALID_CLAIM
            assert got.detail == _expected_detail(exc)
            continue
        accepted += 1
        assert isinstance(got, DecodedClaim), (doc, got)
        _same_model(got.claim, want)
    # the generator reaches both sides, each often
    assert accepted > 150 and refused > 500, (accepted, refused)


def _screened_record(rng: random.Random, claim: dict[str, Any]) -> dict[str, Any]:
    return {
        "claim": claim,
        "hedge": {"action": "none", "category": None, "words": []},
        "citations": [{"type": "url", "value": "https://example.org/a", "verified": None}],
        "provenance": {
            "eligible_turn_ids": ["t1"],
            # a reason with its detail, as a screen worker before rejection_details wrote
            # it: the wrap validator's legacy path
            "rejections": {"t2": rng.choice(["source_not_allowed", "reserved_prefix:chat:"])},
            "rejection_details": {},
        },
        "grounding": {
            "verdict": "supported",
            "score": 0.98,
            "evidence_spans": [{"turn_id": "t1", "start": 0, "end": 3, "text": "We "}],
            "adjusted_confidence": 1,
        },
        "phantoms": [],
        "producer_auth": {"outcome": "unsigned", "claimed_source": "conversation"},
        "timings_ms": {"hedge": 1, "grounding": 0.25},
        "received_at": "2026-11-28T03:55:53.055830Z",
    }


def _screened_mutations(rng: random.Random, rec: dict[str, Any]) -> bytes:
    out = copy.deepcopy(rec)
    roll = rng.random()
    if roll < 0.4:
        out[rng.choice([*ScreenedClaim.model_fields, "extra"])] = rng.choice(_ODD_VALUES)
    elif roll < 0.7:
        section = rng.choice(["hedge", "provenance", "grounding", "producer_auth"])
        if isinstance(out.get(section), dict):
            key = rng.choice([*out[section], "other"])
            out[section][key] = rng.choice(_ODD_VALUES)
    body = orjson.dumps(out)
    if roll > 0.9:  # broken bytes: truncated, not UTF-8, not an object
        body = rng.choice([body[: rng.randrange(len(body))], body + b"\xff", b"[]", b""])
    return body


def test_reading_a_screened_record_matches_model_validate_json() -> None:
    rng = random.Random(15)
    validate = ScreenedClaim.__pydantic_validator__.validate_json
    accepted = refused = 0
    for claim in _claims(400, seed=2):
        body = _screened_mutations(rng, _screened_record(rng, claim))
        try:
            want = ScreenedClaim.model_validate_json(body)
        except ValidationError as exc:
            refused += 1
            with pytest.raises(ValidationError) as got_exc:
                validate(body)
            assert str(got_exc.value) == str(exc)
            continue
        accepted += 1
        _same_model(validate(body), want)
    assert accepted > 50 and refused > 100, (accepted, refused)


def _fields_of(model: type[BaseModel], rng: random.Random) -> dict[str, Any]:
    """The fields the pipeline passes when it makes `model`: EvidenceObject and
    ValidationResult (guards/policy.py), RoutedResult (guards/validator.py), ScreenedClaim
    (guards/screening.py, without the fields it leaves to their defaults) and
    ProducerAuthReport (guards/producer_auth.py)."""
    now = datetime(2026, 11, 28, 4, 30, tzinfo=UTC)
    claim = Claim.model_validate(_VALID_CLAIM)
    evidence = {
        "claim": claim.content,
        "capture_time": claim.created_at or now,
        "confidence": "high",
        "source_id": "t1",
        "metadata": {"source": "user", "claim_confidence": 0.75, "tags": ["a"]},
    }
    validation = {
        "tier": Tier.AUTO_APPROVE,
        "approved": True,
        "reason": "Grounded",
        "reason_code": next(iter(ReasonCode)),
        "dedup": next(iter(DedupOutcome)),
        "evidence": EvidenceObject(**evidence),
        "checks_passed": ["grounding"],
        "checks_failed": [],
        "similarity_score": None,
        "conflicting_memory_id": None,
    }
    auth = {
        "outcome": ProducerAuthOutcome.UNSIGNED,
        "action": ProducerAuthAction.KEPT,
        "claimed_source": Source.CONVERSATION,
        "key_id": rng.choice([None, "k-1"]),
    }
    fields: dict[type[BaseModel], dict[str, Any]] = {
        EvidenceObject: evidence,
        ValidationResult: validation,
        ProducerAuthReport: auth,
        ScreenedClaim: {
            "claim": claim,
            "hedge": HedgeReport(),
            "citations": [CitationReport(type=CitationType.URL, value="https://example.org")],
            "provenance": ProvenanceReport(),
            "timings_ms": {"hedge": 0.25, "provenance": 1},
            "received_at": now,
        },
        RoutedResult: {
            "claim": claim,
            "validation": ValidationResult(**validation),
            "hedge": HedgeReport(),
            "citations": [],
            "provenance": ProvenanceReport(),
            "grounding": GroundingReport(),
            "phantoms": [],
            "duplicate_of": None,
            "similarity": rng.choice([None, 0.91, 1]),
            "pending_duplicate_of": None,
            "producer_auth": ProducerAuthReport(**auth),
            "tags": ["x"],
            "timings_ms": {"dedup": 0.5, "policy": 1},
            "routed_at": now,
            "worker": "w-1",
        },
    }
    return dict(fields[model])


_MADE = [EvidenceObject, ValidationResult, RoutedResult, ScreenedClaim, ProducerAuthReport]


@pytest.mark.parametrize("model", _MADE)
def test_models_made_by_their_validator_match_the_constructor(model: type[BaseModel]) -> None:
    rng = random.Random(model.__name__)
    made = failed = 0
    for _ in range(400):
        fields = _fields_of(model, rng)
        if rng.random() < 0.5:  # an odd value or a missing field
            name = rng.choice(list(fields))
            if rng.random() < 0.2:
                del fields[name]
            else:
                fields[name] = rng.choice(_ODD_VALUES)
        try:
            want = model(**fields)
        except ValidationError as exc:
            failed += 1
            with pytest.raises(ValidationError) as got_exc:
                model.__pydantic_validator__.validate_python(fields)
            assert str(got_exc.value) == str(exc)
            continue
        made += 1
        _same_model(model.__pydantic_validator__.validate_python(fields), want)
    assert made > 100 and failed > 20, (made, failed)
