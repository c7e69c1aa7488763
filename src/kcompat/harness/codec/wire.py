"""Kafka's primitive encodings, with a reader that turns every bad byte into one line.

A reader knows what it is reading (``CreateTopics v5 request``) and where, so
a truncated frame, an oversized length or a bad varint says the API, the
version and the byte offset, and never reads past what it was given: lengths
are checked against the bytes left before anything is allocated.
"""

from __future__ import annotations

import struct
import uuid

from ..errors import WireError


class CodecError(WireError):
    """A frame or a value the codec can't encode or decode; one line naming API, version and byte offset."""


FIXED = {"int8": ">b", "int16": ">h", "int32": ">i", "int64": ">q", "uint16": ">H", "uint32": ">I",
         "float64": ">d"}
"""Fixed-width primitives and their big-endian ``struct`` formats."""

SIZES = {name: struct.calcsize(fmt) for name, fmt in FIXED.items()}


def unsigned_varint(value: int) -> bytes:
    """Kafka's unsigned varint (protobuf's base-128, at most 5 bytes for what Kafka writes)."""
    if not 0 <= value < 1 << 32:
        raise ValueError(f"unsigned varint out of range: {value}")
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


class Reader:
    """Bytes read front to back; ``where`` (e.g. ``CreateTopics v5 request``) prefixes every error."""

    def __init__(self, data: bytes, where: str, start: int = 0, end: int | None = None):
        self.data = data
        self.where = where
        self.offset = start
        self.end = len(data) if end is None else end

    @property
    def left(self) -> int:
        return self.end - self.offset

    def fail(self, what: str, offset: int | None = None) -> CodecError:
        return CodecError(f"{self.where}: {what} at byte {self.offset if offset is None else offset}")

    def take(self, count: int, what: str) -> bytes:
        if count > self.left:
            raise self.fail(f"truncated: {what} needs {count} bytes, {self.left} left")
        chunk = self.data[self.offset:self.offset + count]
        self.offset += count
        return chunk

    def fixed(self, kind: str, what: str) -> int | float:
        value: int | float = struct.unpack(FIXED[kind], self.take(SIZES[kind], f"{kind} {what}"))[0]
        return value

    def integer(self, kind: str, what: str) -> int:
        return int(self.fixed(kind, what))

    def unsigned_varint(self, what: str) -> int:
        start, value = self.offset, 0
        for shift in range(0, 35, 7):
            byte = self.take(1, f"varint {what}")[0]
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                if value >= 1 << 32:
                    break
                return value
        raise self.fail(f"varint {what} longer than 5 bytes or above 2^32", start)

    def length(self, compact: bool, wide: bool, what: str) -> int:
        """A length prefix (-1 for null): compact is a varint of length+1, else int16 (strings) or int32."""
        if compact:
            return self.unsigned_varint(what) - 1
        return self.integer("int32" if wide else "int16", what)

    def sized(self, length: int, what: str) -> bytes:
        """``length`` bytes announced by a prefix: an announcement beyond the frame is an oversized length."""
        if length > self.left:
            raise self.fail(f"oversized length: {what} announces {length} bytes, {self.left} left")
        return self.take(length, what)

    def uuid(self, what: str) -> uuid.UUID:
        return uuid.UUID(bytes=self.take(16, f"uuid {what}"))


def fixed(kind: str, value: int | float) -> bytes:
    return struct.pack(FIXED[kind], value)


def length(value: int, compact: bool, wide: bool) -> bytes:
    """The prefix ``Reader.length`` reads."""
    return unsigned_varint(value + 1) if compact else fixed("int32" if wide else "int16", value)
