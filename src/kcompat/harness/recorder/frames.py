"""Kafka frames as a broker reads them: pure functions, no sockets.

What any client sent is in the first eight bytes of each request (API key,
version, correlation id); those are read by hand, so a version no schema
knows is still recorded.  The rest (client id, tagged fields, the body) is
decoded with kio's schema of that exact version.  Responses are kio entities
framed with the header their version needs; ``blank`` builds the minimal
valid response of any API and version (zeros, empty lists, nulls), which the
stub fills in where a client needs more to proceed.
"""

from __future__ import annotations

import dataclasses
import datetime
import io
import struct
import types
import typing
from dataclasses import dataclass
from typing import Any, Union

from kio.index import UnknownAPIKey, UnknownEntity, load_request_schema, load_response_schema
from kio.schema.errors import ErrorCode
from kio.serial import entity_reader, entity_writer

from ..errors import WireError
from ..protocol import API_VERSIONS, MAX_FRAME

_FIXED = struct.Struct(">hhi")
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
MAX_DEPTH = 16
"""kio's schemas nest at most five deep; deeper means a broken schema, not a response to build."""


@dataclass(frozen=True)
class RequestHeader:
    """The fixed part of a request header: enough to record what was sent, whatever the version."""

    api_key: int
    api_version: int
    correlation_id: int


def frame_size(prefix: bytes) -> int:
    """The size a 4-byte frame prefix announces, checked against what a broker would accept."""
    if len(prefix) != 4:
        raise WireError(f"a frame prefix is 4 bytes, got {len(prefix)}")
    size = int(struct.unpack(">i", prefix)[0])
    if not 8 <= size <= MAX_FRAME:
        raise WireError(f"a request frame of {size} bytes (a request is 8 to {MAX_FRAME} bytes)")
    return size


def read_header(frame: bytes) -> RequestHeader:
    """API key, version and correlation id of a request frame (its size prefix removed)."""
    if len(frame) < _FIXED.size:
        raise WireError(f"a request of {len(frame)} bytes has no header (8 bytes at least)")
    api_key, api_version, correlation_id = _FIXED.unpack_from(frame)
    return RequestHeader(api_key, api_version, correlation_id)


def client_id_of(frame: bytes) -> str | None:
    """The client id of a request frame: header v1 and v2 both carry it right after the fixed part as a
    non-compact nullable string (KIP-482 kept it so), so it reads the same at every version kio may not know."""
    if len(frame) < _FIXED.size + 2:
        return None
    (length,) = struct.unpack_from(">h", frame, _FIXED.size)
    start = _FIXED.size + 2
    if length < 0 or start + length > len(frame):
        return None
    return frame[start:start + length].decode("utf-8", errors="replace")


class FrameBuffer:
    """Splits a byte stream into size-prefixed frames, whatever the reads' boundaries (a proxy's recv).

    ``feed`` returns the frames complete so far, each without its prefix.  Sizes from 0 up are
    accepted: SASL tokens (handshake v0) and the broker's empty answers to them are frames too.  A
    size no Kafka peer sends stops the splitting: ``broken`` says why, and ``drain`` hands back the
    bytes not yet returned, so a proxy forwards them as they are.
    """

    def __init__(self) -> None:
        self._pending = bytearray()
        self.broken: str | None = None

    def feed(self, data: bytes) -> list[bytes]:
        self._pending += data
        frames: list[bytes] = []
        while self.broken is None and len(self._pending) >= 4:
            (size,) = struct.unpack_from(">i", self._pending)
            if not 0 <= size <= MAX_FRAME:
                self.broken = f"a frame of {size} bytes (0 to {MAX_FRAME} expected): the stream is not Kafka's"
                break
            if len(self._pending) < 4 + size:
                break
            frames.append(bytes(self._pending[4:4 + size]))
            del self._pending[:4 + size]
        return frames

    def drain(self) -> bytes:
        """The bytes held back (the start of a frame not yet complete, or everything after a broken size)."""
        held = bytes(self._pending)
        self._pending.clear()
        return held


def known(api_key: int, version: int) -> bool:
    """Whether kio has both the request and the response schema of this version."""
    try:
        load_request_schema(api_key, version)
        load_response_schema(api_key, version)
    except (UnknownAPIKey, UnknownEntity):
        return False
    return True


def decode_request(frame: bytes) -> Any:
    """The request entity of a frame whose version kio knows (``known``), its header skipped."""
    header = read_header(frame)
    schema = load_request_schema(header.api_key, header.api_version)
    try:
        _, offset = entity_reader(schema.__header_schema__)(frame, 0)
        request, _ = entity_reader(schema)(frame, offset)
    except Exception as exc:  # kio raises plain ValueErrors on malformed data
        raise WireError(f"can't decode request {header.api_key} v{header.api_version}: {exc}") from exc
    return request


def decode_response(api_key: int, version: int, frame: bytes, schema: type[Any] | None = None) -> tuple[int, Any]:
    """Correlation id and response entity of a response frame (size prefix removed) at a version kio knows, or
    read with the ``schema`` given (``rewrite.response_schema``: kio's, or a successor of Kafka 4 it lacks)."""
    try:
        schema = schema or load_response_schema(api_key, version)
        header, offset = entity_reader(schema.__header_schema__)(frame, 0)
        response, _ = entity_reader(schema)(frame, offset)
    except (UnknownAPIKey, UnknownEntity) as exc:
        raise WireError(f"no schema in kio for response {api_key} v{version}") from exc
    except Exception as exc:  # kio raises plain ValueErrors on malformed data
        raise WireError(f"can't decode response {api_key} v{version}: {exc}") from exc
    return int(header.correlation_id), response


def encode_response(correlation_id: int, response: Any) -> bytes:
    """A response frame, size prefix included.  ApiVersions answers with header v0 at every version
    (a client must read its error before it knows which versions the broker speaks); kio says so too."""
    body = io.BytesIO()
    header = response.__header_schema__(correlation_id=correlation_id)
    entity_writer(type(header))(body, header)
    entity_writer(type(response))(body, response)
    payload = body.getvalue()
    return struct.pack(">i", len(payload)) + payload


def unsupported_api_versions(correlation_id: int) -> bytes:
    """What Kafka answers an ApiVersions of a version it doesn't know: v0 with UNSUPPORTED_VERSION
    (the client then retries at a version the answer names)."""
    schema = load_response_schema(API_VERSIONS, 0)
    return encode_response(correlation_id, blank(schema, error_code=ErrorCode.unsupported_version))


def blank(entity: type[Any], depth: int = 0, **values: Any) -> Any:
    """The entity with every field zero, empty or null, except ``values`` (by field name); values for
    fields this version lacks are left out, so one call answers every version of an API."""
    if depth > MAX_DEPTH:
        raise WireError(f"{entity.__name__} nests more than {MAX_DEPTH} levels")
    hints = typing.get_type_hints(entity)
    fields = {f.name: values[f.name] if f.name in values else _zero(hints[f.name], f.metadata, depth)
              for f in dataclasses.fields(entity)}
    return entity(**fields)


def _zero(hint: Any, metadata: typing.Mapping[str, Any], depth: int) -> Any:
    origin = typing.get_origin(hint)
    if origin is tuple:
        return ()
    if origin in (Union, types.UnionType) and type(None) in typing.get_args(hint):
        return None
    kind = str(metadata.get("kafka_type", ""))
    if not kind and dataclasses.is_dataclass(hint):
        return blank(typing.cast(type[Any], hint), depth + 1)
    zeros: dict[str, Any] = {"bool": False, "bytes": b"", "string": "", "error_code": ErrorCode.none,
                             "timedelta_i32": datetime.timedelta(0), "timedelta_i64": datetime.timedelta(0),
                             "datetime_i64": _EPOCH}
    return zeros.get(kind, 0) if kind != "records" else None


def item_type(entity: type[Any], name: str) -> type[Any]:
    """The element class of a list field (``topics`` of CreateTopicsResponse v5 -> CreatableTopicResult)."""
    hint = typing.get_type_hints(entity)[name]
    (item, *_) = typing.get_args(hint)
    return typing.cast(type[Any], item)


def has_field(entity: type[Any], name: str) -> bool:
    return any(f.name == name for f in dataclasses.fields(entity))
