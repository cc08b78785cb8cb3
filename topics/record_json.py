"""The wire records' JSON written by orjson, byte for byte what pydantic's serializer writes.

Serialising a screened or routed record with `__pydantic_serializer__.to_json` cost about
as many instructions as everything else the route stage does with the record besides
deciding it (session 14: ~54,000 a record). The records are plain data: their fields hold
str, int, float, bool, None, enums of str, datetimes, lists, dicts and other records, in
declaration order in each model's `__dict__` (pydantic stores validated fields in that
order, and `model_copy` keeps it). orjson writes those the way pydantic does (same float
digits, same string escapes, enums as their value, null for NaN and infinity), in about
half the instructions, once it is handed each record's `__dict__`.

Where the two would differ, this module does not guess: `encode` raises `Unsupported` and
the caller falls back to pydantic. That is the case for
- a record class outside `_PLAIN` (e.g. a subclass defined elsewhere, whose declared
  field type pydantic would serialise by, not its own fields), or one with serializers,
  computed fields, aliases or extra fields (checked once per class at import);
- an int (or any non-float) in a field declared float: pydantic writes `1.0`, orjson `1`
  (validation always stores a float; `model_copy(update=...)` may not);
- a datetime that is not exactly `datetime`, or whose UTC offset has seconds (pydantic
  truncates such an offset to minutes, orjson rounds it); a field declaring floats or
  datetimes other than as `float`, `dict[str, float]` or `datetime` (optional or not)
  makes its class not plain;
- anything orjson refuses: lone surrogates, ints beyond 64 bits, sets, bytes, non-str
  dict keys (pydantic then writes them, or raises, as before).
"""

from __future__ import annotations

import types
import typing
from datetime import UTC, datetime
from typing import Any

import orjson
from pydantic import BaseModel

from groundwire.topics import records

__all__ = ["Unsupported", "encode"]

_OPTIONS = orjson.OPT_UTC_Z  # pydantic writes a zero UTC offset as "Z"

# What a plain class's fields need checked before orjson writes them: (floats: fields
# declared float or float | None, float maps: fields declared dict[str, float], datetimes:
# fields declared datetime or datetime | None).
_Checks = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]


class Unsupported(Exception):
    """The record holds something whose JSON orjson would write differently: use pydantic."""


def _optional(kind: Any, scalar: type) -> bool:
    """`kind` is `scalar` or `scalar | None`."""
    if kind is scalar:
        return True
    origin = typing.get_origin(kind)
    return origin in (typing.Union, types.UnionType) and set(typing.get_args(kind)) == {
        scalar,
        type(None),
    }


def _checks_of(cls: type[BaseModel]) -> _Checks | None:
    """The checks of a plain record class, or None when the class is not plain (see the
    module docstring)."""
    decorators = cls.__pydantic_decorators__
    if (
        decorators.field_serializers
        or decorators.model_serializers
        or decorators.computed_fields
        or cls.model_config.get("extra") == "allow"
    ):
        return None
    floats: list[str] = []
    float_maps: list[str] = []
    datetimes: list[str] = []
    for name, info in cls.model_fields.items():
        if info.exclude or info.alias or info.serialization_alias:
            return None
        kind = info.annotation
        if _optional(kind, float):
            floats.append(name)
        elif typing.get_origin(kind) is dict and typing.get_args(kind) == (str, float):
            float_maps.append(name)
        elif _optional(kind, datetime):
            datetimes.append(name)
        elif "float" in repr(kind) or "datetime" in repr(kind):
            return None  # anywhere else (a list of them, a wider union): not plain
    return tuple(floats), tuple(float_maps), tuple(datetimes)


def _plain_classes() -> dict[type[BaseModel], _Checks | None]:
    """The plain record classes, each with its checks (None: nothing to check, the common
    case, answered without a further bytecode: the hook runs once per nested record)."""
    found: dict[type[BaseModel], _Checks | None] = {}
    for name in records.__all__:
        cls = getattr(records, name)
        if isinstance(cls, type) and issubclass(cls, BaseModel):
            checks = _checks_of(cls)
            if checks is not None:
                found[cls] = checks if any(checks) else None
    return found


_PLAIN = _plain_classes()
_NOT_PLAIN = ((), (), ())


def _default(obj: Any) -> Any:
    """orjson's hook for what it does not write itself: a plain record's fields, once
    its float and datetime fields are seen to hold what pydantic would write alike."""
    checks = _PLAIN.get(type(obj), _NOT_PLAIN)
    if checks is None:
        return obj.__dict__
    if checks is _NOT_PLAIN:
        raise Unsupported(type(obj).__name__)
    values = obj.__dict__
    floats, float_maps, datetimes = checks
    for name in floats:
        value = values[name]
        if value is not None and type(value) is not float:
            raise Unsupported(name)
    for name in float_maps:
        for value in values[name].values():
            if type(value) is not float:
                raise Unsupported(name)
    for name in datetimes:
        value = values[name]
        if value is None:
            continue
        if type(value) is not datetime:
            raise Unsupported(name)
        zone = value.tzinfo
        if zone is not None and zone is not UTC:
            offset = value.utcoffset()
            if offset is None or offset.seconds % 60 or offset.microseconds:
                raise Unsupported(name)  # pydantic truncates such an offset, orjson rounds
    return values


def encode(record: BaseModel) -> bytes:
    """`record`'s JSON as `record.__pydantic_serializer__.to_json(record)` writes it.

    Raises `Unsupported` when it cannot be sure of that (the caller then uses pydantic)."""
    if type(record) not in _PLAIN:
        raise Unsupported(type(record).__name__)
    try:
        return orjson.dumps(record, default=_default, option=_OPTIONS)
    except orjson.JSONEncodeError as exc:
        raise Unsupported(str(exc)) from exc
