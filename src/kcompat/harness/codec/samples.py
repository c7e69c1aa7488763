"""Sample values for any definition at any version: what the round trips through Java and the fuzz loop use.

``full`` gives every field a value that is not its default (so tagged fields
are written and nullable fields carry data), arrays two distinct elements (a
``mapKey`` array keeps both); ``sparse`` gives nullable fields ``None`` and
everything else its default, so both sides of every null and tag are tried.
"""

from __future__ import annotations

import itertools
import uuid
from typing import Any

from .schema import Field, Struct, default_value

RANGES = {"int8": 1 << 7, "int16": 1 << 15, "int32": 1 << 31, "int64": 1 << 63}


def sample(struct: Struct, version: int, *, full: bool = True, seed: int = 1) -> dict[str, Any]:
    """A value of ``struct`` at ``version``, deterministic in ``seed``."""
    return _struct(struct, version, full, itertools.count(seed))


def _struct(struct: Struct, version: int, full: bool, counter: itertools.count[int]) -> dict[str, Any]:
    return {field.name: _field(field, version, full, counter) for field in struct.fields if field.present(version)}


def _field(field: Field, version: int, full: bool, counter: itertools.count[int]) -> Any:
    if not full:
        return None if version in field.nullable else default_value(field, version)
    kind = field.type
    if kind.array:
        if kind.struct:
            assert field.struct is not None
            return [_struct(field.struct, version, full, counter) for _ in range(2)]
        return [_primitive(kind.name, next(counter), None) for _ in range(2)]
    if kind.struct:
        assert field.struct is not None
        return _struct(field.struct, version, full, counter)
    return _primitive(kind.name, next(counter), default_value(field, version))


def _primitive(kind: str, n: int, default: Any) -> Any:
    """A value of ``kind`` from ``n``, never ``default``."""
    if kind == "bool":
        return default is not True
    if kind in RANGES:
        value = n % (RANGES[kind] - 2) + 1
        return value if value != default else value + 1
    if kind == "uint16":
        return n % 0xFFFE + 1
    if kind == "uint32":
        return n % 0xFFFFFFFE + 1
    if kind == "float64":
        return n + 0.5
    if kind == "string":
        return f"s{n}-é"
    if kind in ("bytes", "records"):
        return bytes([n % 256, 0, 255]) * (n % 3 + 1)
    if kind == "uuid":
        return uuid.UUID(int=(n * 0x9E3779B97F4A7C15) % (1 << 128) or 1)
    raise ValueError(f"no sample for type {kind}")
