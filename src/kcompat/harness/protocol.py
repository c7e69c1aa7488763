"""A small synchronous Kafka protocol connection built on ``kio``.

``kio`` holds Kafka's message schemas as Python types (generated from the
``*.json`` files under ``clients/src/main/resources/common/message``), so no
codec is written here: this module only frames requests, matches correlation
ids and picks versions.  It is what readiness and ``brokers probe`` use, and
what the wire-level client builds on.
"""

from __future__ import annotations

import io
import itertools
import socket
import struct
import sys
from dataclasses import dataclass, fields
from collections.abc import Mapping
from typing import Any, Self

from kio.index import UnknownAPIKey, UnknownEntity, load_request_schema, load_response_schema
from kio.schema.index import api_key_map
from kio.serial import entity_reader, entity_writer

from .errors import NotOffered, WireError

API_VERSIONS = 18
METADATA = 3
SASL_HANDSHAKE = 17
SASL_AUTHENTICATE = 36
MAX_FRAME = 64 * 1024 * 1024


BEYOND_KIO = {88: "StreamsGroupHeartbeat", 89: "StreamsGroupDescribe", 90: "DescribeShareGroupOffsets",
              91: "AlterShareGroupOffsets", 92: "DeleteShareGroupOffsets"}
"""APIs of Kafka 4.x that kio 0.5.0 has no schema of (KIP-932, KIP-1071), by key as Kafka's message schemas
(``common/message/*Request.json``) name them: a claim, a broker's ApiVersions and kafka-clients' limits can
name them; no kio client can send them."""


def api_name(api_key: int) -> str | None:
    """Kafka's name for an API key (``ApiVersions``), or None if kio and ``BEYOND_KIO`` predate it."""
    snake = api_key_map.get(api_key)
    if snake is None:
        return BEYOND_KIO.get(api_key)
    return "".join(part.capitalize() for part in str(snake).split("_"))


def api_key(name: str) -> int | None:
    """The key of the API Kafka names ``name`` (``CreateTopics`` -> 19), or None if kio and ``BEYOND_KIO`` lack it."""
    return next((key for key in (*api_key_map, *BEYOND_KIO) if api_name(key) == name), None)


@dataclass(frozen=True)
class ApiVersionRange:
    api_key: int
    min_version: int
    max_version: int

    @property
    def name(self) -> str | None:
        return api_name(self.api_key)

    def as_json(self) -> dict[str, Any]:
        return {"api_key": self.api_key, "name": self.name,
                "min_version": self.min_version, "max_version": self.max_version}


def client_versions(api_key: int) -> range:
    """The request versions of ``api_key`` that kio can encode."""
    versions: list[int] = []
    for version in range(0, 64):
        try:
            load_request_schema(api_key, version)
        except (UnknownAPIKey, UnknownEntity):
            if versions:
                break
            continue
        versions.append(version)
    if not versions:
        return range(0)
    return range(versions[0], versions[-1] + 1)


def pick_version(api_key: int, broker: dict[int, ApiVersionRange]) -> int:
    """The highest version both the broker and kio speak."""
    theirs = broker.get(api_key)
    ours = client_versions(api_key)
    if theirs is None or not ours:
        raise NotOffered(f"the broker does not offer API {api_name(api_key) or api_key}")
    high = min(theirs.max_version, ours[-1])
    if high < max(theirs.min_version, ours[0]):
        raise NotOffered(
            f"no common version of {api_name(api_key)}: broker {theirs.min_version}-{theirs.max_version}, "
            f"kio {ours[0]}-{ours[-1]}"
        )
    return high


def build_request(api_key: int, version: int, **values: Any) -> Any:
    """A request of this exact version, given values by field name.

    Fields the version lacks are dropped when their value is empty or false,
    so one call site builds every version; a meaningful value the version
    can't carry (``validate_only=True`` at CreateTopics v0) is an error rather
    than a silently different request.
    """
    try:
        schema = load_request_schema(api_key, version)
    except (UnknownAPIKey, UnknownEntity) as exc:
        raise WireError(f"kio has no {api_name(api_key) or api_key} v{version} request") from exc
    names = {item.name for item in fields(schema)}
    lost = sorted(key for key, value in values.items() if key not in names and value not in (None, False, (), 0))
    if lost:
        raise WireError(f"{api_name(api_key)} v{version} has no field {', '.join(lost)}; "
                        "pick a version that carries it or leave it unset")
    return schema(**{key: value for key, value in values.items() if key in names})


def request_fields(api_key: int, version: int) -> frozenset[str]:
    """The field names a request version has (``validate_only`` is not in CreateTopics v0)."""
    try:
        schema = load_request_schema(api_key, version)
    except (UnknownAPIKey, UnknownEntity) as exc:
        raise WireError(f"kio has no {api_name(api_key) or api_key} v{version} request") from exc
    return frozenset(item.name for item in fields(schema))


def nested_type(api_key: int, version: int, name: str, **empty: Any) -> Any:
    """A nested entity class of a request version (``CreatableTopic`` of CreateTopics v5).

    kio generates one module per version; the request built empty (``empty``
    fills its required fields) leads to the module that holds its parts.
    """
    request_type = type(build_request(api_key, version, **empty))
    return getattr(sys.modules[request_type.__module__], name)


def encoded_size(entity: Any) -> int:
    """Bytes a decoded request or response takes on the wire (its body, without header and frame)."""
    body = io.BytesIO()
    entity_writer(type(entity))(body, entity)
    return len(body.getvalue())


def metadata_request(version: int, topics: tuple[Any, ...] | None) -> Any:
    """Metadata at ``version`` for ``topics`` (None: all), never creating topics."""
    return build_request(METADATA, version, topics=topics, allow_auto_topic_creation=False,
                         include_cluster_authorized_operations=False, include_topic_authorized_operations=False)


@dataclass(frozen=True)
class ResponseFrame:
    """One response as received: header and body, without the 4-byte size prefix."""

    api_key: int
    version: int
    correlation_id: int
    data: bytes

    @property
    def wire_bytes(self) -> int:
        """Bytes the response took on the socket, size prefix included."""
        return len(self.data) + 4


class SaslRefused(WireError):
    """The broker answered the SASL exchange with a refusal (bad credentials): a Kafka answer, not a fault."""


class WireConnection:
    """One TCP connection to one broker; requests are sent one at a time."""

    def __init__(self, host: str, port: int, *, timeout: float = 5.0, client_id: str = "kcompat"):
        self.address = f"{host}:{port}"
        self.client_id = client_id
        self._correlation = itertools.count(1)
        try:
            self._sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise WireError(f"can't connect to {self.address}: {exc}") from exc
        self._sock.settimeout(timeout)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._sock.close()

    def send(self, request: Any) -> Any:
        """Send one request and return the decoded response entity."""
        return self.decode(self.exchange(request))

    def exchange(self, request: Any) -> ResponseFrame:
        """Send one request and return its response undecoded, as it came off the socket.

        For measuring what a response costs on the wire (bench/listing.py)
        apart from decoding it in Python; ``send`` is ``decode(exchange())``.
        """
        api_key, version = int(request.__api_key__), int(request.__version__)
        correlation_id = next(self._correlation)
        header = request.__header_schema__(
            request_api_key=api_key, request_api_version=version,
            correlation_id=correlation_id, client_id=self.client_id,
        )
        body = io.BytesIO()
        entity_writer(type(header))(body, header)
        entity_writer(type(request))(body, request)
        self._write_frame(body.getvalue())
        return ResponseFrame(api_key, version, correlation_id, self._read_frame())

    def decode(self, frame: ResponseFrame) -> Any:
        """The response entity of a frame ``exchange`` returned."""
        # ApiVersions responses always use header v0 so old clients can read
        # the error; kio's response schema says which header each one uses.
        api_key, version = frame.api_key, frame.version
        response_type = load_response_schema(api_key, version)
        try:
            response_header, offset = entity_reader(response_type.__header_schema__)(frame.data, 0)
            if response_header.correlation_id != frame.correlation_id:
                raise WireError(f"{self.address} answered correlation id "
                                f"{response_header.correlation_id}, expected {frame.correlation_id}")
            response, _ = entity_reader(response_type)(frame.data, offset)
        except WireError:
            raise
        except Exception as exc:  # kio raises plain ValueErrors on malformed data
            raise WireError(f"can't decode {api_name(api_key)} v{version} from {self.address}: {exc}") from exc
        return response

    def call(self, api: str | int, version: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """One request through the catalog's codec (``kcompat.harness.codec``), any API at any version a catalog
        release defines; ``body`` and the answer use the definitions' field names (``GroupId``), a field left
        out takes its default.  A frame that can't be encoded or decoded is a ``WireError`` naming API, version
        and byte offset."""
        from .codec.catalog import catalog_codec

        codec = catalog_codec()
        correlation_id = next(self._correlation)
        self._write_frame(codec.encode_request(api, version, {"CorrelationId": correlation_id,
                                                              "ClientId": self.client_id}, body)[4:])
        header, answer = codec.decode_response(api, version, _framed(self._read_frame()))
        if header["CorrelationId"] != correlation_id:
            raise WireError(f"{self.address} answered correlation id {header['CorrelationId']}, "
                            f"expected {correlation_id}")
        return answer

    def api_versions(self) -> list[ApiVersionRange]:
        """ApiVersions v0: every broker since 0.10.0 answers it, before any SASL."""
        response = self.send(build_request(API_VERSIONS, 0))
        if response.error_code != 0:
            raise WireError(f"ApiVersions on {self.address} returned error {int(response.error_code)}")
        return [ApiVersionRange(int(k.api_key), int(k.min_version), int(k.max_version))
                for k in response.api_keys]

    def authenticate_plain(self, username: str, password: str, broker: dict[int, ApiVersionRange]) -> None:
        """SASL/PLAIN: SaslAuthenticate where the broker has it (1.0+), else raw tokens."""
        token = b"\0" + username.encode() + b"\0" + password.encode()
        modern = SASL_AUTHENTICATE in broker
        handshake = self.send(build_request(SASL_HANDSHAKE, 1 if modern else 0, mechanism="PLAIN"))
        if handshake.error_code != 0:
            raise SaslRefused(f"SASL handshake on {self.address} failed with error code {int(handshake.error_code)}")
        if modern:
            answer = self.send(build_request(SASL_AUTHENTICATE, 0, auth_bytes=token))
            if answer.error_code != 0:
                raise SaslRefused(f"SASL/PLAIN as {username!r} on {self.address} failed: {answer.error_message}")
            return
        self._write_frame(token)
        try:
            self._read_frame()
        except WireError as exc:  # brokers before 1.0 just close the connection
            raise SaslRefused(f"SASL/PLAIN as {username!r} on {self.address} failed: {exc}") from exc

    def metadata_brokers(self, broker: dict[int, ApiVersionRange]) -> list[int]:
        """The node ids a Metadata request (no topics) lists."""
        response = self.send(metadata_request(pick_version(METADATA, broker), ()))
        return sorted(int(b.node_id) for b in response.brokers)

    def _write_frame(self, payload: bytes) -> None:
        try:
            self._sock.sendall(struct.pack(">i", len(payload)) + payload)
        except OSError as exc:
            raise WireError(f"send to {self.address} failed: {exc}") from exc

    def _read_frame(self) -> bytes:
        (size,) = struct.unpack(">i", self._read_exact(4))
        if not 0 <= size <= MAX_FRAME:
            raise WireError(f"{self.address} sent a frame of {size} bytes")
        return self._read_exact(size)

    def _read_exact(self, count: int) -> bytes:
        chunks = bytearray()
        while len(chunks) < count:
            try:
                chunk = self._sock.recv(count - len(chunks))
            except OSError as exc:
                raise WireError(f"read from {self.address} failed: {exc}") from exc
            if not chunk:
                raise WireError(f"{self.address} closed the connection")
            chunks += chunk
        return bytes(chunks)


def _framed(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload
