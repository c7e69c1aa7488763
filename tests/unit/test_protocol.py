"""Pure-logic parts of the Kafka protocol connection; the exchanges themselves are tested against real brokers."""

import io
import socket
import struct
import threading
from collections.abc import Callable

import pytest
from kio.index import load_response_schema
from kio.schema.errors import ErrorCode
from kio.serial import entity_writer
from kio.static.primitive import i32

from kcompat.harness import WireError
from kcompat.harness.protocol import (
    METADATA,
    ApiVersionRange,
    WireConnection,
    api_name,
    build_request,
    client_versions,
    pick_version,
)


def test_api_names_follow_kafka() -> None:
    assert api_name(18) == "ApiVersions"
    assert api_name(19) == "CreateTopics"
    assert api_name(32) == "DescribeConfigs"
    assert api_name(37) == "CreatePartitions"
    assert api_name(30000) is None


def test_kio_carries_the_versions_kafka_4_removed() -> None:
    """Why kio is pinned to 0.5.0: old brokers and KIP-108's claims need these."""
    assert client_versions(19)[0] == 0  # CreateTopics v0
    assert client_versions(32)[0] == 0  # DescribeConfigs v0
    assert client_versions(METADATA)[0] == 0


def test_pick_version_is_the_highest_common_one() -> None:
    broker = {METADATA: ApiVersionRange(METADATA, 0, 5)}
    assert pick_version(METADATA, broker) == 5
    modern = {METADATA: ApiVersionRange(METADATA, 4, 99)}
    assert pick_version(METADATA, modern) == client_versions(METADATA)[-1]
    with pytest.raises(WireError, match="does not offer"):
        pick_version(METADATA, {})


def test_build_request_drops_fields_a_version_lacks() -> None:
    v0 = build_request(METADATA, 0, topics=(), allow_auto_topic_creation=False)
    v4 = build_request(METADATA, 4, topics=(), allow_auto_topic_creation=False)
    assert not hasattr(v0, "allow_auto_topic_creation")
    assert v4.allow_auto_topic_creation is False


class _OneAnswer:
    """A loopback listener that answers one request with a prepared frame (header + body)."""

    def __init__(self, answer: Callable[[int], bytes]):
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._answer = answer
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        conn, _ = self._server.accept()
        with conn:
            (size,) = struct.unpack(">i", conn.recv(4))
            request = b""
            while len(request) < size:
                request += conn.recv(size - len(request))
            correlation_id = struct.unpack(">i", request[4:8])[0]  # api key i16, version i16, correlation i32
            payload = self._answer(correlation_id)
            conn.sendall(struct.pack(">i", len(payload)) + payload)

    def close(self) -> None:
        self._thread.join(timeout=5)
        self._server.close()


def _api_versions_frame(correlation_id: int) -> bytes:
    response_type = load_response_schema(18, 0)
    response = response_type(error_code=ErrorCode.none, api_keys=())
    header = response_type.__header_schema__(correlation_id=i32(correlation_id))
    body = io.BytesIO()
    entity_writer(type(header))(body, header)
    entity_writer(response_type)(body, response)
    return body.getvalue()


def test_exchange_returns_the_frame_send_would_decode() -> None:
    server = _OneAnswer(_api_versions_frame)
    try:
        with WireConnection("127.0.0.1", server.port) as conn:
            frame = conn.exchange(build_request(18, 0))
            decoded = conn.decode(frame)
    finally:
        server.close()
    assert frame.api_key == 18 and frame.version == 0 and frame.correlation_id == 1
    assert frame.data == _api_versions_frame(1)
    assert frame.wire_bytes == len(frame.data) + 4
    assert decoded.error_code == ErrorCode.none and decoded.api_keys == ()


def test_decode_checks_the_correlation_id() -> None:
    server = _OneAnswer(lambda correlation_id: _api_versions_frame(correlation_id + 7))
    try:
        with WireConnection("127.0.0.1", server.port) as conn:
            with pytest.raises(WireError, match="answered correlation id 8, expected 1"):
                conn.send(build_request(18, 0))
    finally:
        server.close()
