"""A struct of the definitions to bytes and back, at one version, as Kafka's generated classes do it.

Values are plain Python: ``int``, ``float``, ``bool``, ``str``, ``bytes``
(records too), ``uuid.UUID``, ``None`` where a version makes a field
nullable, lists and dicts keyed by the definitions' field names.  A decoded
struct has every field its version has (tagged ones at their default when
the frame leaves them out); unknown tagged fields are kept under
``UNKNOWN_TAGGED`` so a re-encoding writes them back, as Java keeps them.
Encoding fills a missing field with its default, drops a non-default
``ignorable`` field the version lacks and refuses any other such field.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from struct import error as StructError
from typing import Any

from .schema import Field, Struct, default_value
from .wire import FIXED, CodecError, Reader, fixed, length, unsigned_varint

UNKNOWN_TAGGED = "_unknown_tagged"
"""Key of a decoded struct's tagged fields its definition doesn't know: {tag: raw bytes}."""

MAX_STRING = 0x7FFF


class Writer:
    """Bytes written front to back; ``where`` prefixes every error, as a ``Reader``'s does."""

    def __init__(self, where: str):
        self.out = bytearray()
        self.where = where

    def fail(self, what: str) -> CodecError:
        return CodecError(f"{self.where}: {what} at byte {len(self.out)}")


def compact_for(field: Field, version: int, flexible: bool) -> bool:
    """Compact (varint-prefixed) encoding: the message's flexible versions unless the field says otherwise."""
    return version in field.flexible if field.flexible is not None else flexible


def read_struct(reader: Reader, struct: Struct, version: int, flexible: bool, path: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    tagged: dict[int, Field] = {}
    for field in struct.fields:
        if not field.present(version):
            continue
        if flexible and field.is_tagged(version):
            assert field.tag is not None
            tagged[field.tag] = field
            out[field.name] = default_value(field, version)
        else:
            out[field.name] = read_value(reader, field, version, flexible, path + field.name)
    if flexible:
        unknown = _read_tagged(reader, tagged, out, version, path)
        if unknown:
            out[UNKNOWN_TAGGED] = unknown
    return out


def _read_tagged(reader: Reader, known: Mapping[int, Field], out: dict[str, Any], version: int,
                 path: str) -> dict[int, bytes]:
    """Tagged fields in ascending tag order, each once, as Java's ``TaggedFields`` requires."""
    unknown: dict[int, bytes] = {}
    previous = -1
    for _ in range(reader.unsigned_varint(f"{path or 'top-level '}tagged field count")):
        start = reader.offset
        tag = reader.unsigned_varint(f"{path}tag")
        size = reader.unsigned_varint(f"{path}size of tagged field {tag}")
        if tag <= previous:
            problem = "appears twice" if tag == previous else f"comes after tag {previous}"
            raise reader.fail(f"bad tagged field: tag {tag} {problem} in {path or 'the top level'}", start)
        previous = tag
        body = reader.sized(size, f"{path}tagged field {tag}")
        field = known.get(tag)
        if field is None:
            unknown[tag] = body
            continue
        inner = Reader(reader.data, reader.where, reader.offset - size, reader.offset)
        out[field.name] = read_value(inner, field, version, True, path + field.name)
        if inner.left:
            raise reader.fail(f"bad tagged field {tag} ({path}{field.name}): {inner.left} of its {size} bytes unread",
                              start)
    return unknown


def read_value(reader: Reader, field: Field, version: int, flexible: bool, path: str) -> Any:
    compact, nullable = compact_for(field, version, flexible), version in field.nullable
    kind = field.type
    if kind.array:
        count = reader.length(compact, True, f"array {path}")
        if count < 0:
            return _null(reader, count, nullable, path)
        if count > reader.left:
            raise reader.fail(f"oversized length: array {path} announces {count} elements, {reader.left} bytes left")
        if kind.struct:
            assert field.struct is not None
            return [read_struct(reader, field.struct, version, flexible, f"{path}[{i}].") for i in range(count)]
        return [read_primitive(reader, kind.name, compact, False, f"{path}[{i}]") for i in range(count)]
    if kind.struct:
        assert field.struct is not None
        if nullable and reader.integer("int8", f"null marker of {path}") < 0:
            return None
        return read_struct(reader, field.struct, version, flexible, path + ".")
    return read_primitive(reader, kind.name, compact, nullable, path)


def _null(reader: Reader, length: int, nullable: bool, path: str) -> None:
    if length < -1:
        raise reader.fail(f"negative length {length} of {path}")
    if not nullable:
        raise reader.fail(f"{path} is null but not nullable in this version")
    return None


def read_primitive(reader: Reader, kind: str, compact: bool, nullable: bool, path: str) -> Any:
    if kind in FIXED:
        return reader.fixed(kind, path)
    if kind == "bool":
        return reader.take(1, f"bool {path}")[0] != 0
    if kind == "uuid":
        return reader.uuid(path)
    start = reader.offset
    size = reader.length(compact, kind != "string", f"{kind} {path}")
    if size < 0:
        return _null(reader, size, nullable, path)
    if kind != "string":
        return reader.sized(size, f"{kind} {path}")
    if size > MAX_STRING:
        raise reader.fail(f"oversized length: string {path} announces {size} bytes (at most {MAX_STRING})", start)
    try:
        return reader.sized(size, f"string {path}").decode()
    except UnicodeDecodeError as exc:
        raise reader.fail(f"string {path} is not UTF-8 ({exc.reason})", start) from None


def write_struct(writer: Writer, struct: Struct, value: Any, version: int, flexible: bool, path: str = "") -> None:
    if not isinstance(value, Mapping):
        raise writer.fail(f"{path or struct.name} must be a dict, not {type(value).__name__}")
    known = {field.name for field in struct.fields}
    if stray := sorted(set(value) - known - {UNKNOWN_TAGGED}, key=repr):
        raise writer.fail(f"{struct.name} has no field {path}{stray[0]}")
    tagged = _unknown_tagged(writer, value.get(UNKNOWN_TAGGED) or {}, path)
    for field in struct.fields:
        given = value.get(field.name, _MISSING)
        if not field.present(version):
            if given is not _MISSING and not field.ignorable and given != default_value(field, version):
                raise writer.fail(f"{path}{field.name} is not in this version and has a non-default value")
            continue
        item = default_value(field, version) if given is _MISSING else given
        if flexible and field.is_tagged(version):
            assert field.tag is not None
            encoded = _tagged_bytes(writer, field, item, version, path)
            if encoded != _tagged_bytes(writer, field, default_value(field, version), version, path):
                tagged[field.tag] = encoded
        else:
            write_value(writer, field, item, version, flexible, path + field.name)
    if flexible:
        writer.out += unsigned_varint(len(tagged))
        for tag in sorted(tagged):
            writer.out += unsigned_varint(tag) + unsigned_varint(len(tagged[tag])) + tagged[tag]


_MISSING = object()


def _unknown_tagged(writer: Writer, given: Any, path: str) -> dict[int, bytes]:
    """A decoded struct's unknown tagged fields, checked before they are written back."""
    if not isinstance(given, Mapping) or not all(
            isinstance(tag, int) and 0 <= tag < 1 << 31 and isinstance(data, bytes) for tag, data in given.items()):
        raise writer.fail(f"{path}{UNKNOWN_TAGGED} must map tags (int) to bytes")
    return dict(given)


def _tagged_bytes(writer: Writer, field: Field, value: Any, version: int, path: str) -> bytes:
    inner = Writer(writer.where)
    write_value(inner, field, value, version, True, path + field.name)
    return bytes(inner.out)


def write_value(writer: Writer, field: Field, value: Any, version: int, flexible: bool, path: str) -> None:
    compact, kind = compact_for(field, version, flexible), field.type
    if value is None:
        if version not in field.nullable:
            raise writer.fail(f"{path} is None but not nullable in this version")
        if kind.struct and not kind.array:
            writer.out += fixed("int8", -1)
        else:
            writer.out += length(-1, compact, kind.name != "string" or kind.array)
        return
    if kind.array:
        if not isinstance(value, (list, tuple)):
            raise writer.fail(f"{path} must be a list, not {type(value).__name__}")
        writer.out += length(len(value), compact, True)
        for i, item in enumerate(value):
            if kind.struct:
                assert field.struct is not None
                write_struct(writer, field.struct, item, version, flexible, f"{path}[{i}].")
            else:
                write_primitive(writer, kind.name, item, compact, f"{path}[{i}]")
    elif kind.struct:
        assert field.struct is not None
        if version in field.nullable:
            writer.out += fixed("int8", 1)
        write_struct(writer, field.struct, value, version, flexible, path + ".")
    else:
        write_primitive(writer, kind.name, value, compact, path)


def write_primitive(writer: Writer, kind: str, value: Any, compact: bool, path: str) -> None:
    if kind in FIXED:
        integral = kind != "float64"
        if isinstance(value, bool) or not isinstance(value, int if integral else (int, float)):
            raise writer.fail(f"{path} must be {'an int' if integral else 'a float'} ({kind}), not {value!r}")
        try:
            writer.out += fixed(kind, value)
        except (StructError, OverflowError):  # OverflowError: an int beyond float64
            raise writer.fail(f"{path} = {value} does not fit {kind}") from None
    elif kind == "bool":
        if not isinstance(value, bool):
            raise writer.fail(f"{path} must be a bool, not {value!r}")
        writer.out.append(int(value))
    elif kind == "uuid":
        if not isinstance(value, uuid.UUID):
            raise writer.fail(f"{path} must be a uuid.UUID, not {value!r}")
        writer.out += value.bytes
    else:
        _write_sized(writer, kind, value, compact, path)


def _write_sized(writer: Writer, kind: str, value: Any, compact: bool, path: str) -> None:
    if kind == "string":
        if not isinstance(value, str):
            raise writer.fail(f"{path} must be a str, not {value!r}")
        try:
            data = value.encode()
        except UnicodeEncodeError as exc:  # a lone surrogate
            raise writer.fail(f"{path} can't be UTF-8 ({exc.reason})") from None
        if len(data) > MAX_STRING:
            raise writer.fail(f"{path} is {len(data)} bytes long, a string holds at most {MAX_STRING}")
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    else:
        raise writer.fail(f"{path} must be bytes ({kind}), not {type(value).__name__}")
    writer.out += length(len(data), compact, kind != "string") + data
