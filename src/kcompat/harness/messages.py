"""Requests and responses as plain values over Kafka's own message definitions (the catalog's codec).

The codec (``kcompat.harness.codec``) speaks dicts keyed by the definitions'
names (``ThrottleTimeMs``); the harness reads and builds them by the
snake_case names its records have always used (``throttle_time``), so a
record's ``result_fields`` keep their names whatever encodes them:
``field_name`` is that rule.  ``Fields`` reads a decoded struct by those
names; ``Part`` is a struct at one version, which builds the dict the codec
encodes from snake_case values and answers which fields the version has.
Time fields stay numbers of milliseconds, uuids ``uuid.UUID``.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .codec.schema import Field, Struct
from .codec.structs import UNKNOWN_TAGGED
from .errors import WireError

class Unexpressible(WireError):
    """A value a request version can't carry (a field it lacks, a null it can't say): nothing is sent."""


_RESERVED = {"id": "id_", "type": "type_"}
_EMPTY: tuple[Any, ...] = (None, False, 0)


def snake(name: str) -> str:
    """A definition's name in snake_case (``IsrNodes`` -> ``isr_nodes``, ``ISRNodes`` too)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


@functools.cache
def field_name(name: str) -> str:
    """The harness's name of a definition's field: snake_case, a time's ``Ms`` unit dropped (the value stays
    ms), ``id``/``type`` with a trailing underscore (``ThrottleTimeMs`` -> ``throttle_time``)."""
    found = snake(name)
    found = found[:-3] if found.endswith("_ms") else found
    return _RESERVED.get(found, found)


class Fields:
    """A decoded struct, read by attribute (``response.topics[0].error_code``); a field its version lacks is
    an AttributeError."""

    __slots__ = ("_value",)

    def __init__(self, value: Mapping[str, Any]):
        self._value = {field_name(name): item for name, item in value.items() if name != UNKNOWN_TAGGED}

    def __getattr__(self, name: str) -> Any:
        try:
            return _read(self._value[name])
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self) -> str:
        return f"Fields({self._value!r})"


def _read(value: Any) -> Any:
    if isinstance(value, Mapping):
        return Fields(value)
    if isinstance(value, list):
        return tuple(_read(item) for item in value)
    return value


def names(fields: Fields) -> tuple[str, ...]:
    """The fields a decoded struct has, in the definition's order."""
    return tuple(fields._value)


def as_dict(fields: Fields) -> dict[str, Any]:
    """A decoded struct as nested dicts and lists by the harness's names."""
    return {name: _plain(value) for name, value in fields._value.items()}


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return as_dict(Fields(value))
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


class Entry(dict[str, Any]):
    """A nested struct already in the definitions' names (``Part`` made it): built into a request as it is."""


@dataclass(frozen=True)
class Part:
    """A request's struct (or one nested in it) at one version."""

    struct: Struct
    version: int
    where: str

    def field(self, name: str) -> Field | None:
        return _by_name(self.struct).get(name)

    def has(self, name: str) -> bool:
        found = self.field(name)
        return found is not None and found.present(self.version)

    def names(self) -> frozenset[str]:
        return frozenset(field_name(f.name) for f in self.struct.fields if f.present(self.version))

    def element(self, name: str) -> Part:
        """The struct a field of structs holds (``topics`` of OffsetFetch: its topic entries)."""
        found = self.field(name)
        if found is None or found.struct is None:
            raise WireError(f"{self.where} has no struct field {name}")
        return Part(found.struct, self.version, f"{self.where}.{name}")

    def find(self, struct_name: str) -> Part | None:
        """The nested struct named ``struct_name`` anywhere below (``CreatableTopic`` of CreateTopics)."""
        for f in self.struct.fields:
            if f.struct is not None:
                inner = Part(f.struct, self.version, f"{self.where}.{field_name(f.name)}")
                if f.struct.name == struct_name:
                    return inner
                if (deeper := inner.find(struct_name)) is not None:
                    return deeper
        return None

    def __call__(self, **values: Any) -> Entry:
        return Entry(self.values(values))

    def values(self, values: Mapping[str, Any], *, strict: bool = True) -> dict[str, Any]:
        """The dict the codec encodes: fields the version lacks are dropped when empty or false; a meaningful
        one is refused when ``strict`` (``validate_only=True`` at CreateTopics v0), else dropped too."""
        out: dict[str, Any] = {}
        lost = []
        for name, value in values.items():
            found = self.field(name)
            if found is None or not found.present(self.version):
                if strict and not _empty(value):
                    lost.append(name)
                continue
            if value is None and self.version not in found.nullable:
                if found.type.array:  # "every one" (OffsetFetch's topics: null) is no empty list
                    lost.append(name)
                continue  # an unset id where the version can't say null: its default (a zero uuid, as Java)
            out[found.name] = self._value(found, value)
        if lost:
            raise Unexpressible(f"{self.where} v{self.version} can't carry {', '.join(sorted(lost))} as asked; "
                                "pick a version that carries it or leave it unset")
        return out

    def _value(self, found: Field, value: Any) -> Any:
        if found.struct is None or value is None:
            return wire_value(value)
        inner = Part(found.struct, self.version, f"{self.where}.{field_name(found.name)}")
        if found.type.array:
            return [inner.entry(item) for item in value]
        return inner.entry(value)

    def entry(self, value: Any) -> dict[str, Any]:
        """One struct value: an ``Entry`` as it is; a mapping, or a dataclass (an entity declared the way a
        library declares one), by field name."""
        if isinstance(value, Entry):
            return value
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        return self.values(value)


_NAMED: dict[int, dict[str, Field]] = {}
"""Each struct's fields by the harness's names, keyed by the struct's identity (the codec keeps its structs
for the process; hashing one would walk all it holds)."""


def _by_name(struct: Struct) -> dict[str, Field]:
    found = _NAMED.get(id(struct))
    if found is None:
        found = _NAMED[id(struct)] = {field_name(f.name): f for f in struct.fields}
    return found


def _empty(value: Any) -> bool:
    return isinstance(value, list | tuple) and not value or value in _EMPTY


def wire_value(value: Any) -> Any:
    """A value as the codec writes it: an enum as its number, a duration or an instant as ms, a tuple as a
    list."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime.timedelta):
        return int(value / datetime.timedelta(milliseconds=1))
    if isinstance(value, datetime.datetime):
        return int(value.timestamp() * 1000)
    if isinstance(value, tuple | list):
        return [wire_value(item) for item in value]
    return value


__all__ = ["Entry", "Fields", "Part", "as_dict", "field_name", "names", "snake", "wire_value"]
