"""Instructions of single record operations (parsing and making the wire records), per
record, under callgrind: what bench/results/pipeline.md's session-16 record-parsing
tables quote.

Each operation runs over the same 200 dev claims (their producer JSON and parsed dict) or
200 screened records (written by `bench/stage_workload.py --record`): twice to warm up,
then once with callgrind's instrumentation switched on, GC off, and the count of that pass
is dumped and divided by the records. `empty` is the switching's own cost (~2,800 a
record): subtract it.

    python bench/stage_workload.py --stage screen --record /tmp/rec.pkl --claims 200 --data DEV
    PYTHONHASHSEED=0 setarch -R valgrind --tool=callgrind --instr-atstart=no \\
        --callgrind-out-file=/tmp/ops.out python bench/count_ops.py --out /tmp/ops.out \\
        --records /tmp/rec.pkl --data DEV empty claim_model_validate claim_validator ...

Without an operation it lists them.
"""

from __future__ import annotations

import argparse
import gc
import glob
import os
import pickle
import subprocess
import sys
import types
import typing
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel
from pydantic_core import CoreSchema, SchemaValidator, core_schema

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.bench_pipeline import claim, load_corpus  # noqa: E402
from groundwire.topics.codec import DecodeLimits, decode_signed_claim  # noqa: E402
from groundwire.topics.records import Claim, ScreenedClaim  # noqa: E402


def _trusting(kind: Any) -> CoreSchema | None:
    """A pydantic-core schema that builds the same models and checks nothing (every leaf
    `any`): what making the models costs without validating them."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in typing.get_args(kind) if a is not type(None)]
        sub = _trusting(inner)
        return None if sub is None else core_schema.nullable_schema(sub)
    if kind is datetime:
        return core_schema.datetime_schema()
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        fields = {
            name: core_schema.model_field(_trusting(info.annotation) or core_schema.any_schema())
            for name, info in kind.model_fields.items()
        }
        return core_schema.model_schema(
            kind,
            core_schema.model_fields_schema(fields, model_name=kind.__name__),
            post_init=kind.__pydantic_post_init__,
        )
    if origin is list:
        sub = _trusting(typing.get_args(kind)[0])
        return None if sub is None else core_schema.list_schema(sub)
    if origin is dict:
        sub = _trusting(typing.get_args(kind)[1])
        return None if sub is None else core_schema.dict_schema(core_schema.any_schema(), sub)
    return None


def _operations(claims: list[bytes], records: list[bytes]) -> dict[str, Callable[[], object]]:
    docs = [orjson.loads(v) for v in claims]
    screened_docs = [orjson.loads(v) for v in records]
    limits = DecodeLimits()
    trusting = SchemaValidator(_trusting(ScreenedClaim))  # type: ignore[arg-type]
    claim_validator = Claim.__pydantic_validator__
    screened_validator = ScreenedClaim.__pydantic_validator__
    return {
        "empty": lambda: [None for _ in records],
        "claim_orjson": lambda: [orjson.loads(v) for v in claims],
        "claim_model_validate": lambda: [Claim.model_validate(d) for d in docs],
        "claim_validator": lambda: [claim_validator.validate_python(d) for d in docs],
        "decode_signed_claim": lambda: [decode_signed_claim(v, limits) for v in claims],
        "screened_orjson": lambda: [orjson.loads(v) for v in records],
        "screened_model_validate_json": lambda: [
            ScreenedClaim.model_validate_json(v) for v in records
        ],
        "screened_validator_json": lambda: [screened_validator.validate_json(v) for v in records],
        "screened_validator_dict": lambda: [
            screened_validator.validate_python(d) for d in screened_docs
        ],
        "screened_trusting_json": lambda: [trusting.validate_json(v) for v in records],
        "screened_trusting_dict": lambda: [trusting.validate_python(d) for d in screened_docs],
    }


def _callgrind(*args: str) -> None:
    subprocess.run(["callgrind_control", *args, str(os.getpid())], check=True, capture_output=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ops", nargs="*")
    ap.add_argument("--out", help="callgrind's --callgrind-out-file (its dumps are read)")
    ap.add_argument("--records", type=Path, help="screened records (stage_workload --record)")
    ap.add_argument("--data", type=Path, default=Path("/work/shared/data/grounding-dev.jsonl"))
    ap.add_argument("--claims", type=int, default=200)
    args = ap.parse_args()
    load_corpus(args.data)
    claims = [claim(i, "bench") for i in range(args.claims)]
    records = (
        [r[0] for r in pickle.loads(args.records.read_bytes())[: args.claims]]
        if args.records
        else []
    )
    ops = _operations(claims, records)
    if not args.ops:
        print("\n".join(ops))
        return
    if not records or not args.out:
        ap.error("--records and --out are needed to count")
    gc.disable()
    n = len(records)
    for name in args.ops:
        op = ops[name]
        op()
        op()
        _callgrind("-i", "on")
        op()
        _callgrind("-i", "off")
        before = set(glob.glob(f"{args.out}.*"))
        _callgrind(f"--dump={name}")
        (dump,) = set(glob.glob(f"{args.out}.*")) - before
        totals = next(
            line for line in Path(dump).read_text().splitlines() if line.startswith("totals:")
        )
        print(f"{name}: {int(totals.split()[1]) // n:,} instructions a record")


if __name__ == "__main__":
    main()
