"""Kafka's message definitions (``common/message/*.json``) as typed values.

The files are JSON with ``//`` comments, the input of Kafka's own generator;
this module reads the parts the wire format depends on: each field's type,
``versions``, ``nullableVersions``, ``taggedVersions``/``tag``,
``flexibleVersions`` (a message's, and a field's own override), ``ignorable``
and ``default``, inline and common structs.  One ``Message`` is one file of
one release: a release's ``latestVersionUnstable`` version stays that
release's (see ``releases.py``).
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .wire import FIXED, CodecError

PRIMITIVES = frozenset({*FIXED, "bool", "string", "bytes", "uuid", "records"})


@dataclass(frozen=True)
class Versions:
    """A version range of the definitions: ``0+``, ``3-5``, ``7`` or ``none``."""

    low: int
    high: int | None  # None: open-ended

    @classmethod
    def parse(cls, text: str | None) -> Versions:
        if text is None or text.strip() in ("", "none"):
            return NONE
        found = re.fullmatch(r"\s*(\d+)\s*(\+|-\s*(\d+))?\s*", text)
        if found is None:
            raise ValueError(f"bad version range {text!r}")
        low = int(found.group(1))
        if found.group(2) == "+":
            return cls(low, None)
        return cls(low, int(found.group(3)) if found.group(3) else low)

    def __contains__(self, version: object) -> bool:
        return isinstance(version, int) and self.low <= version and (self.high is None or version <= self.high)

    def upto(self, highest: int) -> range:
        return range(self.low, min(highest, self.high if self.high is not None else highest) + 1)


NONE = Versions(1, 0)


@dataclass(frozen=True)
class FieldType:
    """A field's type: a primitive, a struct (by name), or an array of either."""

    name: str
    array: bool = False

    @classmethod
    def parse(cls, text: str) -> FieldType:
        return cls(text[2:], True) if text.startswith("[]") else cls(text)

    @property
    def struct(self) -> bool:
        return self.name not in PRIMITIVES


@dataclass(frozen=True)
class Field:
    name: str
    type: FieldType
    versions: Versions
    nullable: Versions = NONE
    tagged: Versions = NONE
    tag: int | None = None
    flexible: Versions | None = None  # the field's own override (RequestHeader's ClientId)
    ignorable: bool = False
    default: str | None = None
    struct: Struct | None = None  # of a struct or struct-array field

    def present(self, version: int) -> bool:
        return version in self.versions

    def is_tagged(self, version: int) -> bool:
        return version in self.tagged and self.tag is not None


@dataclass(frozen=True)
class Struct:
    name: str
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Message:
    """One definition file of one release."""

    name: str  # CreateTopicsRequest
    kind: str  # request, response, header or data
    api_key: int | None
    valid: Versions
    flexible: Versions
    struct: Struct
    release: str
    unstable_latest: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def api(self) -> str:
        """``CreateTopics`` of ``CreateTopicsRequest`` (the API's name in both of its files)."""
        return re.sub(r"(Request|Response)$", "", self.name)

    @property
    def highest(self) -> int:
        return self.valid.high if self.valid.high is not None else self.valid.low

    def versions(self) -> range:
        return self.valid.upto(self.highest)

    def unstable(self) -> frozenset[int]:
        """The versions this release may change before it ships them (never merged with another release's)."""
        return frozenset({self.highest}) if self.unstable_latest else frozenset()


def strip_comments(text: str) -> str:
    """JSON without the definitions' ``//`` comments (a ``//`` inside a string, a URL in an ``about``, stays)."""
    out, in_string, i = [], False, 0
    while i < len(text):
        char = text[i]
        if in_string:
            out.append(char)
            if char == "\\":
                out.append(text[i + 1:i + 2])
                i += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            out.append(char)
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        else:
            out.append(char)
        i += 1
    return "".join(out)


def _struct(name: str, specs: Iterable[Mapping[str, Any]], common: Mapping[str, Mapping[str, Any]],
            within: tuple[str, ...] = ()) -> Struct:
    return Struct(name, tuple(_field(spec, common, (*within, name)) for spec in specs))


def _field(spec: Mapping[str, Any], common: Mapping[str, Mapping[str, Any]], within: tuple[str, ...]) -> Field:
    kind = FieldType.parse(spec["type"])
    struct = None
    if kind.struct:
        if "fields" not in spec and kind.name in within:
            raise ValueError(f"field {spec['name']}: struct {kind.name} contains itself")
        inner = spec["fields"] if "fields" in spec else common.get(kind.name, {}).get("fields")
        if inner is None:
            raise ValueError(f"field {spec['name']} has struct type {kind.name}, defined nowhere")
        struct = _struct(kind.name, inner, common, within)
    default = spec.get("default")
    if default not in (None, "null") and not kind.struct and not kind.array:
        _primitive_default(kind.name, str(default))  # a default that decoding would trip on fails here, once
    flexible = spec.get("flexibleVersions")
    return Field(
        name=spec["name"], type=kind, versions=Versions.parse(spec.get("versions")),
        nullable=Versions.parse(spec.get("nullableVersions")), tagged=Versions.parse(spec.get("taggedVersions")),
        tag=None if spec.get("tag") is None else int(spec["tag"]), flexible=None if flexible is None else Versions.parse(flexible),
        ignorable=bool(spec.get("ignorable", False)),
        default=None if default is None else str(default).lower() if isinstance(default, bool) else str(default),
        struct=struct)


def _inline(specs: Iterable[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    """Structs defined inside fields, by name: another field may name one without repeating it."""
    found: dict[str, Mapping[str, Any]] = {}
    for spec in specs:
        if "fields" in spec:
            found[FieldType.parse(spec["type"]).name] = spec
            found |= _inline(spec["fields"])
    return found


def parse_message(text: str, release: str, source: str = "") -> Message:
    """One definition file; a file this module can't read is one line naming it."""
    try:
        data, _ = json.JSONDecoder().raw_decode(strip_comments(text).strip())  # like Kafka's generator, what
        # follows the first value is ignored (2.8's DescribeProducersRequest.json ends in a stray "]}")
        common = {spec["name"]: spec for spec in data.get("commonStructs", ())} | _inline(data.get("fields", ()))
        return Message(
            name=data["name"], kind=data["type"], api_key=data.get("apiKey"),
            valid=Versions.parse(data["validVersions"]), flexible=Versions.parse(data.get("flexibleVersions")),
            struct=_struct(data["name"], data.get("fields", ()), common), release=release,
            unstable_latest=bool(data.get("latestVersionUnstable", False)))
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:  # not an object; nested
        # deeper than Python's stack
        raise CodecError(f"kafka-clients {release}: can't read the definition {source or 'text'}: {exc!r}") from exc


def default_value(field: Field, version: int) -> Any:
    """The value a field has when a frame leaves it out (Kafka's generator's rules)."""
    text, kind = field.default, field.type
    if text == "null" and (version in field.nullable or not field.present(version)):
        return None
    if kind.array:
        return []
    if kind.struct:
        assert field.struct is not None
        return {f.name: default_value(f, version) for f in field.struct.fields if f.present(version)}
    return _primitive_default(kind.name, text)


def _primitive_default(kind: str, text: str | None) -> Any:
    if kind == "bool":
        return text == "true"
    if kind == "float64":
        return float(text) if text else 0.0
    if kind in ("string",):
        return text if text not in (None, "null") else ""
    if kind == "bytes":
        return b""
    if kind == "records":
        return None
    if kind == "uuid":
        return uuid.UUID(int=0)
    if not text:
        return 0
    negative = text.startswith("-")
    digits = text.lstrip("-")
    value = int(digits[2:], 16) if digits.lower().startswith("0x") else int(digits)
    return -value if negative else value
