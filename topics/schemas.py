"""JSON Schemas of the wire contract, generated from the record models and checked in.

Producers in other languages validate against `topics/schemas/*.json`; a test fails when
the files drift from the models, so the contract cannot change by accident.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from groundwire.topics.answers import Answer, ScoredAnswer
from groundwire.topics.memory import MemoryAuditEvent, MemoryCommand, MemoryRecord
from groundwire.topics.records import (
    Claim,
    DlqRecord,
    ReplayNotice,
    ReviewAuditEvent,
    ReviewedResult,
    RoutedResult,
    ScreenedClaim,
)

SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"

MODELS: dict[str, type[BaseModel]] = {
    "claim": Claim,
    "routed_result": RoutedResult,
    "screened_claim": ScreenedClaim,
    "dlq_record": DlqRecord,
    "replay_notice": ReplayNotice,
    "reviewed_result": ReviewedResult,
    "review_audit_event": ReviewAuditEvent,
    "answer": Answer,
    "scored_answer": ScoredAnswer,
    "memory_record": MemoryRecord,
    "memory_command": MemoryCommand,
    "memory_audit_event": MemoryAuditEvent,
}

# What producers write (validated as input); everything else is what groundwire writes.
INPUTS = frozenset({"claim", "answer"})


def render(name: str) -> str:
    model = MODELS[name]
    schema = model.model_json_schema(mode="validation" if name in INPUTS else "serialization")
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://groundwire.dev/schemas/{name}.json",
        **schema,
    }
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write_schemas() -> list[Path]:
    SCHEMA_DIR.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in MODELS:
        path = SCHEMA_DIR / f"{name}.json"
        path.write_text(render(name), encoding="utf-8")
        paths.append(path)
    return paths


def stale_schemas() -> list[str]:
    stale = []
    for name in MODELS:
        path = SCHEMA_DIR / f"{name}.json"
        if not path.is_file() or path.read_text(encoding="utf-8") != render(name):
            stale.append(name)
    return stale


def load_schema(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((SCHEMA_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return schema
