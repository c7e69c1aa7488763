"""Requests and responses of every API at every version a release defines, as frames and plain dicts.

A frame is what goes on the socket: an int32 size, the header, the body.  The
header version follows Kafka's rules: request header v2 for a flexible
request version, else v1 (v0 for ControlledShutdown v0); response header v1
for a flexible response version, else v0 (always v0 for ApiVersions, whose
response must be readable by a client that does not yet know the broker's
versions).  A header dict uses the definitions' names (``CorrelationId``,
``ClientId``); a request's ``RequestApiKey``/``RequestApiVersion`` come from
the call.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..config import HarnessConfig
from .releases import read_jar, release_definitions
from .schema import Message
from .structs import Writer, read_struct, write_struct
from .wire import CodecError, Reader, fixed

CONTROLLED_SHUTDOWN, API_VERSIONS = 7, 18

Api = str | int
"""An API by name (``CreateTopics``) or by key (19)."""


class Codec:
    """One release's definitions (or a ``releases.merge`` of several), keyed by (file name, version)."""

    def __init__(self, release: str, table: Mapping[tuple[str, int], Message]):
        self.release = release
        self._table = dict(table)
        self._names = {message.api: message.api_key for message in self._table.values()
                       if message.kind == "request" and message.api_key is not None}
        self._by_key = {key: name for name, key in self._names.items()}

    @classmethod
    def of(cls, release: str, definitions: Mapping[str, Message]) -> Codec:
        return cls(release, {(name, v): m for name, m in definitions.items() for v in m.versions()})

    @classmethod
    def for_release(cls, release: str, config: HarnessConfig | None = None) -> Codec:
        """``release``'s codec, from its kafka-clients jar (resolved into the artifact cache on first use)."""
        return cls.of(release, release_definitions(release, config or HarnessConfig.resolve()))

    @classmethod
    def from_jar(cls, jar: Path, release: str) -> Codec:
        return cls.of(release, read_jar(jar, release))

    def apis(self) -> dict[str, int]:
        """API name -> key, for every API with a request definition."""
        return dict(sorted(self._names.items(), key=lambda item: item[1]))

    def versions(self, api: Api) -> list[int]:
        """The request versions of ``api`` this codec speaks, unstable ones included."""
        name = self._api(api)
        return sorted(v for (file, v) in self._table if file == f"{name}Request")

    def unstable(self, api: Api) -> frozenset[int]:
        """Versions of ``api`` its release marks unstable (they may change in the next release)."""
        name = self._api(api)
        return frozenset(v for v in self.versions(name) if v in self._table[(f"{name}Request", v)].unstable())

    def message(self, name: str, version: int, where: str = "") -> Message:
        """The definition file ``name`` (``CreateTopicsRequest``, ``RequestHeader``) at ``version``."""
        found = self._table.get((name, version))
        if found is None:
            known = sorted(v for (file, v) in self._table if file == name)
            has = f"it has {known[0]}-{known[-1]}" if known else "no such definition"
            raise CodecError(f"{where or name} v{version}: no definition of kafka-clients {self.release} has this "
                             f"version ({has}) at byte 0")
        return found

    def encode_message(self, name: str, version: int, value: Mapping[str, Any], where: str = "") -> bytes:
        """A body (or a header, or a ``data`` definition) alone, no size prefix."""
        message = self.message(name, version, where)
        writer = Writer(where or f"{name} v{version}")
        write_struct(writer, message.struct, value, version, version in message.flexible)
        return bytes(writer.out)

    def decode_message(self, name: str, version: int, data: bytes, where: str = "") -> dict[str, Any]:
        """``encode_message`` read back; every byte must belong to the message."""
        reader = Reader(data, where or f"{name} v{version}")
        value = self._read(reader, name, version)
        _all_read(reader)
        return value

    def _read(self, reader: Reader, name: str, version: int) -> dict[str, Any]:
        message = self.message(name, version, reader.where)
        return read_struct(reader, message.struct, version, version in message.flexible)

    def request_header_version(self, api: Api, version: int) -> int:
        name = self._api(api)
        if self._names[name] == CONTROLLED_SHUTDOWN and version == 0:
            return 0
        return 2 if version in self.message(f"{name}Request", version).flexible else 1

    def response_header_version(self, api: Api, version: int) -> int:
        name = self._api(api)
        if self._names[name] == API_VERSIONS:
            return 0
        return 1 if version in self.message(f"{name}Response", version).flexible else 0

    def encode_request(self, api: Api, version: int, header: Mapping[str, Any], body: Mapping[str, Any]) -> bytes:
        """A request frame; ``header`` needs ``CorrelationId`` (and ``ClientId`` from header v1)."""
        name = self._api(api)
        where = f"{name} v{version} request"
        key = {"RequestApiKey": self._names[name], "RequestApiVersion": version}
        if clash := [k for k, v in key.items() if header.get(k, v) != v]:
            raise CodecError(f"{where}: header {clash[0]} is {header[clash[0]]}, the call says {key[clash[0]]} "
                             "at byte 4")
        head = self.encode_message("RequestHeader", self.request_header_version(name, version), {**header, **key},
                                   f"{where} header")
        return _framed(head + self.encode_message(f"{name}Request", version, body, where))

    def decode_request(self, frame: bytes, *, rest_ok: bool = False) -> tuple[dict[str, Any], dict[str, Any]]:
        """(header, body) of a request frame; the API and version are read from its header.  ``rest_ok``: bytes
        after the body are ignored, as a Kafka broker ignores them (librdkafka 2.12's Metadata v13 has 3 more)."""
        reader = _unframed(frame, "request frame")
        peek = Reader(frame, "request frame", reader.offset)
        key, version = peek.integer("int16", "RequestApiKey"), peek.integer("int16", "RequestApiVersion")
        name = self._by_key.get(key)
        if name is None:
            raise peek.fail(f"no definition of kafka-clients {self.release} has API key {key}", reader.offset)
        self.message(f"{name}Request", version, f"{name} request")
        reader.where = f"{name} v{version} request header"
        header = self._read(reader, "RequestHeader", self.request_header_version(name, version))
        reader.where = f"{name} v{version} request"
        body = self._read(reader, f"{name}Request", version)
        if not rest_ok:
            _all_read(reader)
        return header, body

    def encode_response(self, api: Api, version: int, header: Mapping[str, Any], body: Mapping[str, Any]) -> bytes:
        name = self._api(api)
        where = f"{name} v{version} response"
        head = self.encode_message("ResponseHeader", self.response_header_version(name, version), header,
                                   f"{where} header")
        return _framed(head + self.encode_message(f"{name}Response", version, body, where))

    def decode_response(self, api: Api, version: int, frame: bytes) -> tuple[dict[str, Any], dict[str, Any]]:
        """(header, body) of a response frame to a request of ``api`` at ``version`` (responses don't say)."""
        name = self._api(api)
        where = f"{name} v{version} response"
        self.message(f"{name}Response", version, f"{name} response")
        reader = _unframed(frame, f"{where} frame")
        reader.where = f"{where} header"
        header = self._read(reader, "ResponseHeader", self.response_header_version(name, version))
        reader.where = where
        body = self._read(reader, f"{name}Response", version)
        _all_read(reader)
        return header, body

    def _api(self, api: Api) -> str:
        name = self._by_key.get(api) if isinstance(api, int) else api if api in self._names else None
        if name is None:
            raise CodecError(f"kafka-clients {self.release} defines no API {api!r} at byte 0")
        return name


def _framed(payload: bytes) -> bytes:
    return fixed("int32", len(payload)) + payload


def _unframed(frame: bytes, where: str) -> Reader:
    """A reader past the size prefix, which must announce exactly the bytes that follow it."""
    reader = Reader(frame, where)
    size = reader.integer("int32", "size")
    if size < 0 or size > reader.left:
        raise reader.fail(f"truncated frame: size {size}, {reader.left} bytes follow", 0)
    if size < reader.left:
        raise reader.fail(f"size {size} but {reader.left} bytes follow", 0)
    return reader


def _all_read(reader: Reader) -> None:
    if reader.left:
        raise reader.fail(f"{reader.left} bytes left after the message")
