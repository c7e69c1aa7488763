"""The request recorder's pure parts (framing, client ids, address rewriting) and the proxy itself on
loopback in front of the stub broker (what real clients send through it: tests/integration/test_recorder.py)."""

from __future__ import annotations

import dataclasses
import socket
import socketserver
import struct
import threading
import time
from collections.abc import Iterator

import pytest
from kio.index import load_response_schema
from kio.schema.errors import ErrorCode
from kio.schema.index import api_key_map

from kcompat.harness import WireError
from kcompat.harness.protocol import (API_VERSIONS, METADATA, SASL_HANDSHAKE, Request, WireConnection, build_request,
                                      metadata_request, request_payload)
from kcompat.harness.recorder import (CrossCheck, Mark, Recorders, RequestRecorder, SentRequest, StubBroker, Traffic,
                                      cross_check)
from kcompat.harness.recorder.proxy import POLL
from kcompat.harness.waiting import poll
from kcompat.harness.recorder.frames import (FrameBuffer, blank, client_id_of, decode_response, encode_response,
                                             item_type, known)
from kcompat.harness.recorder.rewrite import (BROKER_ADDRESSES, CONTROLLER_ADDRESSES, SUCCESSORS,
                                              carries_addresses, response_schema, rewrite_addresses, rewrite_metadata,
                                              rewrites)
from kcompat.harness.protocol import api_name

FIND_COORDINATOR = 10
DESCRIBE_CLUSTER = 60
PROXIED = {("127.0.0.1", 9092): ("127.0.0.1", 40001), ("127.0.0.1", 9093): ("127.0.0.1", 40002)}


def _request(request: object, correlation_id: int = 7, client_id: str | None = "test") -> bytes:
    """A request as a client puts it on the wire, without the size prefix."""
    assert isinstance(request, Request)
    return request_payload(request, correlation_id, client_id)


def _framed(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


def _answers(raw: socket.socket, count: int) -> list[bytes]:
    """``count`` frames read off ``raw`` (each read bounded by its timeout; the peer closing fails the test)."""
    reader, frames = FrameBuffer(), []
    while len(frames) < count:
        chunk = raw.recv(1 << 20)
        assert chunk, f"the connection closed after {len(frames)} of {count} frames"
        frames += reader.feed(chunk)
    return frames


def test_frames_split_at_every_byte_come_out_whole() -> None:
    frames = [_request(metadata_request(12, None), 1), b"", b"\x00a\x00b", _request(build_request(API_VERSIONS, 3,
              client_software_name="k", client_software_version="1"), 2)]
    stream = b"".join(_framed(f) for f in frames)
    for cut in range(len(stream) + 1):
        buffer = FrameBuffer()
        assert buffer.feed(stream[:cut]) + buffer.feed(stream[cut:]) == frames, cut
    buffer = FrameBuffer()
    assert [f for byte in range(len(stream)) for f in buffer.feed(stream[byte:byte + 1])] == frames
    assert buffer.drain() == b"" and buffer.broken is None


def test_a_size_no_kafka_peer_sends_stops_the_splitting_and_keeps_the_bytes() -> None:
    buffer = FrameBuffer()
    assert buffer.feed(_framed(b"ok") + struct.pack(">i", -3) + b"rest") == [b"ok"]
    assert buffer.broken is not None and "-3 bytes" in buffer.broken
    assert buffer.drain() == struct.pack(">i", -3) + b"rest"


@pytest.mark.parametrize("version", [0, 4, 9, 12])  # header v1 up to v8, v2 (tagged fields) from v9
def test_the_client_id_reads_the_same_in_every_header(version: int) -> None:
    assert client_id_of(_request(metadata_request(version, None), client_id="rdkafka")) == "rdkafka"
    assert client_id_of(_request(metadata_request(version, None), client_id=None)) is None
    assert client_id_of(struct.pack(">hhi", METADATA, 99, 1)) is None  # no client id at all


def _metadata(version: int, *ports: int, topics: int = 0) -> object:
    schema = response_schema(METADATA, version)
    assert schema is not None
    brokers = tuple(blank(item_type(schema, "brokers"), node_id=i, host="127.0.0.1", port=p, rack="r")
                    for i, p in enumerate(ports))
    topic = item_type(schema, "topics")
    partition = blank(item_type(topic, "partitions"), leader_id=1, replica_nodes=(1, 2), isr_nodes=(1,))
    return blank(schema, brokers=brokers, cluster_id="c", controller_id=0, topics=tuple(
        blank(topic, name=f"t{n}", partitions=(partition,)) for n in range(topics)))


@pytest.mark.parametrize("version", [0, 1, 5, 9, 12])
def test_metadata_brokers_move_to_the_recorder_ports(version: int) -> None:
    response = _metadata(version, 9092, 9093)
    rewritten, unknown = rewrite_addresses(response, PROXIED)
    assert unknown == []
    assert [(b.node_id, b.host, b.port) for b in rewritten.brokers] == [(0, "127.0.0.1", 40001),
                                                                        (1, "127.0.0.1", 40002)]
    # and it encodes back to a frame that reads as the same response
    frame = encode_response(5, rewritten)
    assert decode_response(METADATA, version, frame[4:]) == (5, rewritten)


@pytest.mark.parametrize("version", [0, 1, 3, 5, 9, 12, 13])
def test_metadata_frames_are_rewritten_in_their_brokers_only(version: int) -> None:
    """The proxy's fast path (brokers read and written again, topics copied) gives the bytes of the whole
    response decoded, rewritten and encoded again."""
    response = _metadata(version, 9092, 9093, 9999, topics=3)
    frame = encode_response(11, response)[4:]
    fast, unknown = rewrite_metadata(frame, version, PROXIED)
    assert unknown == [("127.0.0.1", 9999)]
    assert fast == encode_response(11, rewrite_addresses(response, PROXIED)[0])[4:]
    assert rewrite_metadata(frame, version, {}) == (frame, [("127.0.0.1", p) for p in (9092, 9093, 9999)])
    with pytest.raises(WireError, match="Metadata"):
        rewrite_metadata(frame[:12], version, PROXIED)


def test_an_address_the_recorder_does_not_proxy_is_named() -> None:
    rewritten, unknown = rewrite_addresses(_metadata(12, 9092, 9999), PROXIED)
    assert unknown == [("127.0.0.1", 9999)] and rewritten.brokers[1].port == 9999


def test_a_response_without_addresses_to_change_is_the_same_object() -> None:
    response = _metadata(12)
    assert rewrite_addresses(response, PROXIED) == (response, [])


@pytest.mark.parametrize("version", [0, 3, 4, 6])
def test_find_coordinator_names_the_proxy_at_every_version(version: int) -> None:
    schema = load_response_schema(FIND_COORDINATOR, version)
    node = {"node_id": 1, "host": "127.0.0.1", "port": 9093}
    response = (blank(schema, **node) if version < 4 else
                blank(schema, coordinators=(blank(item_type(schema, "coordinators"), key="g", **node),)))
    rewritten, _ = rewrite_addresses(response, PROXIED)
    found = rewritten if version < 4 else rewritten.coordinators[0]
    assert (found.host, found.port) == ("127.0.0.1", 40002)


def test_a_coordinator_not_found_is_not_an_address() -> None:
    schema = load_response_schema(FIND_COORDINATOR, 0)
    assert rewrite_addresses(blank(schema, host="", port=-1), PROXIED)[1] == []


def test_describe_cluster_brokers_move_to_the_recorder() -> None:
    schema = load_response_schema(DESCRIBE_CLUSTER, 0)
    response = blank(schema, brokers=(blank(item_type(schema, "brokers"), broker_id=1, host="127.0.0.1",
                                            port=9092),))
    assert rewrite_addresses(response, PROXIED)[0].brokers[0].port == 40001


def test_every_response_with_addresses_is_placed_on_one_side() -> None:
    """A new API of kio naming hosts must be decided: brokers a client reaches (rewritten) or controllers."""
    with_addresses = {api_name(key) for key in api_key_map for version in range(0, 20)
                      if (schema := response_schema(key, version)) is not None and carries_addresses(schema)}
    assert with_addresses <= BROKER_ADDRESSES | CONTROLLER_ADDRESSES, with_addresses - BROKER_ADDRESSES
    assert {"Metadata", "FindCoordinator", "DescribeCluster"} <= with_addresses
    assert rewrites(METADATA, 0) and not rewrites(API_VERSIONS, 3)


@pytest.fixture
def stub() -> Iterator[StubBroker]:
    with StubBroker() as broker:
        yield broker


def test_a_wire_connection_through_the_recorder_is_recorded_and_kept_on_it(stub: StubBroker) -> None:
    with RequestRecorder([(stub.host, stub.port)]) as recorder:
        proxy_host, proxy_port = recorder.proxy_of((stub.host, stub.port))
        with WireConnection(proxy_host, proxy_port, timeout=5, client_id="kc-test") as wire:
            offered = {r.api_key: r for r in wire.api_versions()}
            mark = recorder.traffic.mark()
            metadata = wire.send(metadata_request(12, None))
            wire.send(metadata_request(4, None))
        assert [b.port for b in metadata.brokers] == [proxy_port]
        traffic = recorder.traffic
        assert traffic.versions_since(Mark(), "ApiVersions") == (0,)
        assert traffic.versions_since(mark, "Metadata") == (12, 4) and traffic.version_since(mark, METADATA) == 4
        assert traffic.version_since(mark, "CreateTopics") is None
        assert {r.client_id for r in traffic.sent_since()} == {"kc-test"}
        assert traffic.offered(f"{stub.host}:{stub.port}") == offered == traffic.offered()
        assert traffic.connections() == {f"{stub.host}:{stub.port}": 1} and traffic.problems == []
        # the client closed: both pumps end, and the link is forgotten
        assert poll(lambda: True if recorder.open_connections() == 0 else None, timeout=2, interval=0.02)
        assert len(recorder.threads()) == 1  # the accept thread alone
    assert recorder.threads() == []


def test_pipelined_requests_are_matched_by_correlation_id(stub: StubBroker) -> None:
    with RequestRecorder([(stub.host, stub.port)]) as recorder, \
            socket.create_connection(recorder.proxy_of((stub.host, stub.port)), timeout=5) as raw:
        raw.sendall(b"".join(_framed(_request(metadata_request(v, None), 100 + v)) for v in (1, 9, 12)))
        answers = _answers(raw, 3)
        for version, frame in zip((1, 9, 12), answers, strict=True):
            correlation_id, response = decode_response(METADATA, version, frame)
            assert correlation_id == 100 + version and response.brokers[0].port != stub.port
        assert recorder.traffic.versions_since(Mark(), "Metadata") == (1, 9, 12)
        assert recorder.traffic.problems == []


class _SaslV0Broker(socketserver.BaseRequestHandler):
    """Kafka before 1.0: SaslHandshake v0, then the client's PLAIN token raw and an empty raw answer; then
    requests as usual (answered by the stub)."""

    stub: StubBroker
    tokens: list[bytes] = []

    def handle(self) -> None:
        sock: socket.socket = self.request
        sock.settimeout(5)
        buffer, raw_next = FrameBuffer(), False
        while data := sock.recv(65536):
            for frame in buffer.feed(data):
                if raw_next:
                    self.tokens.append(frame)
                    sock.sendall(_framed(b""))
                    raw_next = False
                    continue
                api_key, _, correlation_id = struct.unpack_from(">hhi", frame)
                if api_key == SASL_HANDSHAKE:
                    schema = load_response_schema(SASL_HANDSHAKE, 0)
                    sock.sendall(encode_response(correlation_id, blank(schema, mechanisms=("PLAIN",))))
                    raw_next = True
                    continue
                reply = self.stub.answer(frame)
                assert reply is not None
                sock.sendall(reply)


def test_sasl_v0_tokens_pass_unread(stub: StubBroker) -> None:
    handler = type("Handler", (_SaslV0Broker,), {"stub": stub, "tokens": []})
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler) as server:
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        broker = ("127.0.0.1", int(server.server_address[1]))
        stub.port = broker[1]  # its Metadata names the SASL broker in front of it
        try:
            with RequestRecorder([broker]) as recorder:
                with WireConnection(*recorder.proxy_of(broker), timeout=5) as wire:
                    offered = {r.api_key: r for r in wire.api_versions() if r.api_key != 36}  # v0: no Authenticate
                    wire.authenticate_plain("al", "x", offered)  # a 5-byte token: not a request header
                    metadata = wire.send(metadata_request(1, None))
                traffic = recorder.traffic
                assert [r.api for r in traffic.sent_since()] == ["ApiVersions", "SaslHandshake", "Metadata"]
                assert traffic.problems == [] and handler.tokens == [b"\0al\0x"]
                assert metadata.brokers[0].port == recorder.proxy_of(broker)[1]
        finally:
            server.shutdown()


def test_an_unknown_mechanism_over_v0_is_a_problem_and_the_bytes_still_flow(stub: StubBroker) -> None:
    with RequestRecorder([(stub.host, stub.port)]) as recorder:
        with WireConnection(*recorder.proxy_of((stub.host, stub.port)), timeout=5) as wire:
            wire.send(build_request(SASL_HANDSHAKE, 0, mechanism="GSSAPI"))
            wire.send(metadata_request(1, None))  # forwarded unread: the stub still answers it
        assert recorder.traffic.versions_since(Mark(), "Metadata") == ()
        (problem,) = recorder.traffic.problems
        assert "GSSAPI" in problem and "forwarded unread" in problem


def test_a_version_kio_cannot_read_is_passed_and_named(stub: StubBroker) -> None:
    with RequestRecorder([(stub.host, stub.port)]) as recorder, \
            socket.create_connection(recorder.proxy_of((stub.host, stub.port)), timeout=5) as raw:
        raw.sendall(_framed(struct.pack(">hhi", METADATA, 99, 3) + b"\xff\xff"))
        assert raw.recv(1) == b""  # the stub closes on a version it can't read; the recorder follows
        assert recorder.traffic.versions_since(Mark(), "Metadata") == (99,)
    assert recorder.threads() == []


def test_close_ends_open_connections_and_every_thread(stub: StubBroker) -> None:
    recorder = RequestRecorder([(stub.host, stub.port)]).__enter__()
    clients = [socket.create_connection(recorder.proxy_of((stub.host, stub.port)), timeout=5) for _ in range(3)]
    try:
        clients[0].sendall(struct.pack(">i", 100))  # a frame announced, never sent
        WireConnection(*recorder.proxy_of((stub.host, stub.port)), timeout=5).api_versions()
        recorder.close()
        assert recorder.threads() == []
        for raw in clients:
            assert raw.recv(1) == b""
    finally:
        for raw in clients:
            raw.close()
    assert recorder.traffic.problems == []
    assert not [t for t in threading.enumerate() if t.name.startswith("kcompat-recorder")]


def test_a_broker_gone_is_a_problem_and_the_client_is_closed() -> None:
    with socket.socket() as placeholder:
        placeholder.bind(("127.0.0.1", 0))
        gone = ("127.0.0.1", int(placeholder.getsockname()[1]))
    with RequestRecorder([gone]) as recorder, socket.create_connection(recorder.proxy_of(gone), timeout=5) as raw:
        assert raw.recv(1) == b""
    assert "can't reach broker" in recorder.traffic.problems[0]


def test_sent_request_is_a_frozen_record() -> None:
    sent = SentRequest(1, "127.0.0.1:9092", METADATA, 12, 3, "x", 0.0)
    assert sent.api == "Metadata" and dataclasses.is_dataclass(sent)


def _traffic(*versions: int) -> Traffic:
    traffic = Traffic()
    for number, version in enumerate(versions):
        traffic.add(SentRequest(1, "127.0.0.1:9092", 19, version, number, "c", 0.0))
    return traffic


def test_the_cell_takes_the_recorded_version_and_keeps_a_disagreement() -> None:
    traffic = _traffic(4, 5)
    start, end = Mark(), traffic.mark()
    assert cross_check(traffic, start, "CreateTopics", 5) == CrossCheck(5, {})
    assert cross_check(traffic, start, "CreateTopics", None) == CrossCheck(5, {})  # a client that can't say
    assert cross_check(traffic, start, "CreateTopics", 4) == CrossCheck(5, {"request_version_reported": 4})
    assert cross_check(traffic, start, "CreateTopics", 4, until=Mark(1, 0)) == CrossCheck(4, {})
    assert cross_check(traffic, end, "CreateTopics", 7) == CrossCheck(7, {"request_version_recorded": None})
    assert cross_check(traffic, end, "CreateTopics", None) == CrossCheck(None, {})


def test_problems_belong_to_the_cell_they_happened_in() -> None:
    traffic = _traffic(5)
    traffic.problem("before")
    mark = traffic.mark()
    traffic.problem("Metadata v13: kio has no schema for it")
    (line,) = cross_check(traffic, mark, "CreateTopics", None).observed["recorder_problems"]  # type: ignore[misc]
    assert line.endswith("Metadata v13: kio has no schema for it")


def test_recorders_are_one_per_cluster_and_reused(stub: StubBroker) -> None:
    @dataclasses.dataclass
    class Broker:
        host: str
        port: int

    @dataclasses.dataclass
    class Cluster:
        brokers: list[Broker]

    recorders = Recorders(keep=1)
    first = Cluster([Broker(stub.host, stub.port)])
    try:
        recorder = recorders(first)
        assert recorders(Cluster([Broker(stub.host, stub.port)])) is recorder
        other = recorders(Cluster([Broker(stub.host, stub.port + 1)]))
        assert other is not recorder and recorder.threads() == []  # the least recently used one was closed
    finally:
        recorders.close()
    assert other.threads() == []


def test_metadata_v13_is_v12_with_a_top_level_error_code_and_is_rewritten() -> None:
    """Kafka 4's Metadata v13 (KIP-1102), which kio lacks: the same bytes as v12 up to a trailing ErrorCode."""
    v12 = _metadata(12, 9092)
    framed12 = encode_response(4, v12)
    v13 = SUCCESSORS[(METADATA, 13)](**{f.name: getattr(v12, f.name) for f in dataclasses.fields(v12)},
                                     error_code=ErrorCode.none)
    framed13 = encode_response(4, v13)
    assert framed13[4:] == framed12[4:-1] + b"\x00\x00" + b"\x00"  # v12's fields, the error code, no tags
    assert not known(METADATA, 13) and response_schema(METADATA, 13) is SUCCESSORS[(METADATA, 13)]
    assert rewrites(METADATA, 13)
    _, read = decode_response(METADATA, 13, framed13[4:], response_schema(METADATA, 13))
    assert rewrite_addresses(read, PROXIED)[0].brokers[0].port == 40001


def test_describe_cluster_v2_adds_is_fenced_to_each_broker_and_is_rewritten() -> None:
    v1 = load_response_schema(DESCRIBE_CLUSTER, 1)
    broker1 = blank(item_type(v1, "brokers"), broker_id=1, host="127.0.0.1", port=9093)
    framed1 = encode_response(2, blank(v1, brokers=(broker1,), cluster_id="c"))
    v2 = SUCCESSORS[(DESCRIBE_CLUSTER, 2)]
    broker2 = item_type(v2, "brokers")(**{f.name: getattr(broker1, f.name) for f in dataclasses.fields(broker1)},
                                       is_fenced=True)
    framed2 = encode_response(2, blank(v2, brokers=(broker2,), cluster_id="c"))
    assert len(framed2) == len(framed1) + 1  # one bool more, inside the broker entry
    _, read = decode_response(DESCRIBE_CLUSTER, 2, framed2[4:], response_schema(DESCRIBE_CLUSTER, 2))
    rewritten, _ = rewrite_addresses(read, PROXIED)
    assert (rewritten.brokers[0].port, rewritten.brokers[0].is_fenced) == (40002, True)
    assert rewrites(DESCRIBE_CLUSTER, 2)


def test_api_versions_v5_reads_as_v4() -> None:
    v4 = load_response_schema(API_VERSIONS, 4)
    entry = blank(item_type(v4, "api_keys"), api_key=3, min_version=0, max_version=13)
    framed = encode_response(8, blank(v4, api_keys=(entry,)))
    _, read = decode_response(API_VERSIONS, 5, framed[4:], response_schema(API_VERSIONS, 5))
    assert [(k.api_key, k.max_version) for k in read.api_keys] == [(3, 13)] and read.__version__ == 5


def test_a_large_answer_reaches_a_client_that_reads_late(stub: StubBroker) -> None:
    """A client that reads a big response only after the recorder's poll interval gets it whole (a send is not
    cut short by the wait for data)."""
    stub.topics.update(f"topic-with-a-long-name-{n:06d}" for n in range(3000))
    with RequestRecorder([(stub.host, stub.port)]) as recorder, \
            socket.create_connection(recorder.proxy_of((stub.host, stub.port)), timeout=10) as raw:
        raw.sendall(_framed(_request(metadata_request(12, None), 9)))
        time.sleep(POLL * 2.5)
        _, response = decode_response(METADATA, 12, _answers(raw, 1)[0])
        assert len(response.topics) == 3000 and response.brokers[0].port != stub.port
        assert recorder.traffic.problems == []


class _Canned(socketserver.BaseRequestHandler):
    """Answers every request with its correlation id (or ``shift`` more) and ``body``."""

    shift = 0
    body = bytes(10)

    def handle(self) -> None:
        sock: socket.socket = self.request
        sock.settimeout(5)
        buffer = FrameBuffer()
        while data := sock.recv(65536):
            for frame in buffer.feed(data):
                (correlation_id,) = struct.unpack_from(">i", frame, 4)
                sock.sendall(_framed(struct.pack(">i", correlation_id + self.shift) + self.body))


def _through_canned(shift: int, request: bytes, body: bytes = bytes(10)) -> list[str]:
    """The recorder's problems after one request to a canned broker."""
    handler = type("Handler", (_Canned,), {"shift": shift, "body": body})
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler) as server:
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        broker = ("127.0.0.1", int(server.server_address[1]))
        try:
            with RequestRecorder([broker]) as recorder, \
                    socket.create_connection(recorder.proxy_of(broker), timeout=5) as raw:
                raw.sendall(_framed(request))
                assert _answers(raw, 1)[0][4:] == body  # passed on unchanged
                return recorder.traffic.problems
        finally:
            server.shutdown()


def test_a_metadata_version_kio_cannot_read_is_passed_and_the_bypass_named() -> None:
    (problem,) = _through_canned(0, struct.pack(">hhi", METADATA, 14, 3) + b"\x00\x04test")
    assert "Metadata v14: kio has no schema for it" in problem and "bypassing the recorder" in problem


def test_an_unreadable_metadata_answer_is_passed_and_named() -> None:
    (problem,) = _through_canned(0, _request(metadata_request(12, None), 3), b"\x00" * 5 + b"\x03" + b"\xff" * 4)
    assert "Metadata v12: can't read the brokers" in problem and "bypassing the recorder" in problem


def test_a_response_matching_no_request_is_passed_and_named() -> None:
    (problem,) = _through_canned(1, _request(metadata_request(12, None), 3))
    assert "matches no request in flight" in problem
