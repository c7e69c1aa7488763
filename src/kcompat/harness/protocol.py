"""A small synchronous Kafka protocol connection over Kafka's own message definitions.

The catalog's codec (``kcompat.harness.codec``, docs/CODEC.md) encodes and
decodes every version of every API the catalog's kafka-clients releases
define; this module frames requests, matches correlation ids, picks versions
and builds requests from the harness's snake_case names
(``kcompat.harness.messages``).  It is what readiness and ``brokers probe``
use, and what the wire-level client builds on.
"""

from __future__ import annotations

import functools
import itertools
import socket
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from .codec.names import known_names
from .errors import NotOffered, WireError
from .messages import Fields, Part

if TYPE_CHECKING:
    from .codec import Codec
    from .codec.schema import Struct

API_VERSIONS = 18
METADATA = 3
SASL_HANDSHAKE = 17
SASL_AUTHENTICATE = 36
MAX_FRAME = 64 * 1024 * 1024

FORMER_NAMES = {74: "ListClientMetricsResources"}
"""APIs the definitions have since renamed, under the name claims and records have always used for them."""


def _codec() -> Codec:
    from .codec.catalog import catalog_codec

    return catalog_codec()


@functools.cache
def _names() -> dict[int, str]:
    return known_names() | FORMER_NAMES


def api_names() -> dict[int, str]:
    """Every API key the catalog's releases define, by name (a renamed one under ``FORMER_NAMES``'s), known
    without any jar (``codec.names``)."""
    return dict(_names())


def api_name(api_key: int) -> str | None:
    """Kafka's name for an API key (``ApiVersions``), or None if no catalog release defines it."""
    known = _names().get(api_key)
    if known is not None:
        return known
    return {key: name for name, key in _codec().apis().items()}.get(api_key)


def api_key(name: str) -> int | None:
    """The key of the API Kafka names ``name`` (``CreateTopics`` -> 19), or None if no catalog release has it."""
    found = next((key for key, known in _names().items() if known == name), None)
    return found if found is not None else _codec().apis().get(name)


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


@functools.cache
def definitions_release() -> str:
    """The kafka-clients releases whose definitions the codec merged, oldest first (``3.9.2+4.4.0``): the wire
    client's version in records."""
    from .versions import KafkaVersion

    codec = _codec()
    found = {codec.message(f"{name}Request", v).release for name in codec.apis() for v in codec.versions(name)}
    return "+".join(sorted(found, key=KafkaVersion.parse))


@functools.cache
def client_versions(api_key: int) -> range:
    """The request versions of ``api_key`` the catalog's codec speaks (stable ones: a release's unstable
    newest never counts)."""
    from .codec.catalog import codec_versions

    versions = codec_versions().get(api_key, [])
    return range(versions[0], versions[-1] + 1) if versions else range(0)


@functools.cache
def by_name(api_key: int) -> range:
    """The versions of ``client_versions`` that still name topics: the harness addresses topics by name, and a
    version that takes a topic's id instead (KIP-516: Produce v13, OffsetCommit v10, OffsetFetch v10,
    TxnOffsetCommit v6) is sent only where a cell pins it."""
    ours = client_versions(api_key)
    named = [v for v in ours if not _ids_only(request_type(api_key, v).struct, v)]
    return range(ours[0], named[-1] + 1) if named else range(0)


def _ids_only(struct: Struct, version: int) -> bool:
    """Whether some struct below ``struct`` has a topic id but, at ``version``, no longer its name."""
    for field in struct.fields:
        if field.struct is None:
            continue
        inner = {f.name: f.present(version) for f in field.struct.fields}
        if inner.get("TopicId") and any(inner.get(n) is False for n in ("Name", "TopicName")):
            return True
        if _ids_only(field.struct, version):
            return True
    return False


def pick_version(api_key: int, broker: dict[int, ApiVersionRange]) -> int:
    """The highest version both the broker and the catalog's definitions speak (that names topics, ``by_name``)."""
    theirs = broker.get(api_key)
    ours = by_name(api_key)
    if theirs is None or not ours:
        raise NotOffered(f"the broker does not offer API {api_name(api_key) or api_key}")
    high = min(theirs.max_version, ours[-1])
    if high < max(theirs.min_version, ours[0]):
        raise NotOffered(
            f"no common version of {api_name(api_key)}: broker {theirs.min_version}-{theirs.max_version}, "
            f"definitions {ours[0]}-{ours[-1]}"
        )
    return high


@dataclass(frozen=True)
class Request:
    """One request of ``api_key`` at ``version``: its body by the definitions' names, as the codec encodes it."""

    api_key: int
    version: int
    body: Mapping[str, Any]

    def __getattr__(self, name: str) -> Any:
        """A field read as a response's are (``request.topics[0].name``): what tests and logs look at."""
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(Fields(self.body), name)


@functools.cache
def request_type(api_key: int, version: int) -> Part:
    """A request version's struct (``Part``): what builds its body and says which fields it has."""
    codec = _codec()
    name = api_name(api_key) or str(api_key)
    if version not in client_versions(api_key):
        raise WireError(f"no catalog release defines {name} v{version} (stable)")
    message = codec.message(f"{codec_name(api_key)}Request", version)
    return Part(message.struct, version, name)


def codec_name(api_key: int) -> str:
    """The definitions' current name of an API (``ListConfigResources`` for key 74)."""
    return next(name for name, key in _codec().apis().items() if key == api_key)


def build_request(api_key: int, version: int, **values: Any) -> Request:
    """A request of this exact version, given values by the harness's field names (``validate_only``).

    Fields the version lacks are dropped when their value is empty or false,
    so one call site builds every version; a meaningful value the version
    can't carry (``validate_only=True`` at CreateTopics v0) is an error rather
    than a silently different request.  A field left out takes its default.
    """
    return Request(api_key, version, request_type(api_key, version).values(values))


def request_fields(api_key: int, version: int) -> frozenset[str]:
    """The field names a request version has (``validate_only`` is not in CreateTopics v0)."""
    return request_type(api_key, version).names()


def nested_type(api_key: int, version: int, name: str, **empty: Any) -> Part:
    """A nested struct of a request version by its definition's name (``CreatableTopic`` of CreateTopics v5):
    called with values by field name, it makes one entry of the request.  (``empty`` is accepted and
    unused: callers once had to build the request empty to reach its parts.)"""
    return _nested(api_key, version, name)


@functools.cache
def _nested(api_key: int, version: int, name: str) -> Part:
    found = request_type(api_key, version).find(name)
    if found is None:
        raise WireError(f"{api_name(api_key)} v{version} has no struct {name}")
    return found


def request_payload(request: Request, correlation_id: int, client_id: str | None) -> bytes:
    """A request's header and body as a client puts them on the wire, without the size prefix."""
    header = {"CorrelationId": correlation_id, "ClientId": client_id}
    return _codec().encode_request(request.api_key, request.version, header, request.body)[4:]


def metadata_request(version: int, topics: tuple[Any, ...] | None) -> Request:
    """Metadata at ``version`` for ``topics`` (None: all; v0 says all with no topics), never creating topics."""
    return build_request(METADATA, version, topics=() if topics is None and version == 0 else topics, allow_auto_topic_creation=False,
                         include_cluster_authorized_operations=False, include_topic_authorized_operations=False)


def MetadataRequestTopic(**values: Any) -> dict[str, Any]:  # noqa: N802 - found by that name on a request's module
    """A Metadata request's topic entry by field name, whatever the version (the request converts it)."""
    return values


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

    def send(self, request: Request) -> Fields:
        """Send one request and return its decoded response, read by field name (``response.error_code``)."""
        return self.decode(self.exchange(request))

    def exchange(self, request: Request) -> ResponseFrame:
        """Send one request and return its response undecoded, as it came off the socket.

        For measuring what a response costs on the wire (bench/listing.py)
        apart from decoding it; ``send`` is ``decode(exchange())``.
        """
        correlation_id = next(self._correlation)
        self._write_frame(request_payload(request, correlation_id, self.client_id))
        return ResponseFrame(request.api_key, request.version, correlation_id, self._read_frame())

    def decode(self, frame: ResponseFrame) -> Fields:
        """The response of a frame ``exchange`` returned (the request's API and version say how to read it)."""
        header, answer = self.decode_raw(frame)
        if header["CorrelationId"] != frame.correlation_id:
            raise WireError(f"{self.address} answered correlation id {header['CorrelationId']}, "
                            f"expected {frame.correlation_id}")
        return Fields(answer)

    def body_size(self, frame: ResponseFrame) -> int:
        """Bytes the response body of ``frame`` took, its header aside (what a response costs to carry)."""
        header, _ = self.decode_raw(frame)
        codec = _codec()
        kept = codec.encode_message("ResponseHeader", codec.response_header_version(frame.api_key, frame.version),
                                    header)
        return len(frame.data) - len(kept)

    def decode_raw(self, frame: ResponseFrame) -> tuple[dict[str, Any], dict[str, Any]]:
        """(header, body) of a response frame by the definitions' names; a bad frame is a ``WireError``."""
        try:
            return _codec().decode_response(frame.api_key, frame.version, _framed(frame.data))
        except WireError as exc:
            raise WireError(f"can't decode {api_name(frame.api_key)} v{frame.version} from {self.address}: "
                            f"{exc}") from exc

    def call(self, api: str | int, version: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """One request through the catalog's codec (``kcompat.harness.codec``), any API at any version a catalog
        release defines; ``body`` and the answer use the definitions' field names (``GroupId``), a field left
        out takes its default.  A frame that can't be encoded or decoded is a ``WireError`` naming API, version
        and byte offset."""
        codec = _codec()
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
