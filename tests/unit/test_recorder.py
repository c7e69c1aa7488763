"""The stub broker's framing, answers and recording: pure logic, and the stub on loopback driven by kcompat's
own wire connection (what real clients send it is tested in tests/integration/test_limits.py)."""

from __future__ import annotations

import datetime
import socket
import struct
import uuid
from typing import Any

import pytest
from kio.index import load_response_schema
from kio.schema.errors import ErrorCode
from kio.schema.index import api_key_map
from kio.serial import entity_reader

from kcompat.harness import WireError
from kcompat.harness.protocol import (API_VERSIONS, METADATA, MAX_FRAME, Request, WireConnection, build_request,
                                      metadata_request, request_payload)
from kcompat.harness.catalog import load_catalog
from kcompat.harness.codec import Codec, CodecError
from kcompat.harness.recorder import Recording, StubBroker, advertised
from kcompat.harness.recorder.spoken import catalog_codec
from kcompat.harness.recorder.frames import (
    blank,
    decode_request,
    encode_response,
    frame_size,
    item_type,
    known,
    read_header,
    unsupported_api_versions,
)

CREATE_TOPICS = 19


def _frame(request: object, correlation_id: int = 7) -> bytes:
    """A request as a client puts it on the wire, without the size prefix."""
    assert isinstance(request, Request)
    return request_payload(request, correlation_id, "test")


def _response(frame: bytes, api_key: int, version: int) -> tuple[int, object]:
    """Correlation id and body of a response frame (size prefix included), read with kio."""
    (size,) = struct.unpack(">i", frame[:4])
    assert size == len(frame) - 4
    schema = load_response_schema(api_key, version)
    header, offset = entity_reader(schema.__header_schema__)(frame[4:], 0)
    body, _ = entity_reader(schema)(frame[4:], offset)
    return int(header.correlation_id), body


def _closed(raw: socket.socket) -> bool:
    """The stub ended this connection: end of stream, or a reset when bytes it never read were pending."""
    try:
        return raw.recv(1) == b""
    except ConnectionResetError:
        return True


def test_the_header_is_read_for_flexible_and_old_versions_alike() -> None:
    for version in (0, 5, 7):  # header v1 up to v4, v2 (tagged fields) from v5
        header = read_header(_frame(build_request(CREATE_TOPICS, version, topics=(), timeout=datetime.timedelta(0)), 41))
        assert (header.api_key, header.api_version, header.correlation_id) == (CREATE_TOPICS, version, 41)


def test_a_version_no_schema_knows_is_still_read() -> None:
    header = read_header(struct.pack(">hhi", METADATA, 13, 5) + b"\x00\x04test")
    assert (header.api_key, header.api_version) == (METADATA, 13) and not known(METADATA, 13)


@pytest.mark.parametrize("prefix", [struct.pack(">i", -1), struct.pack(">i", 7), struct.pack(">i", MAX_FRAME + 1),
                                    b"\x00\x00\x01"])
def test_hostile_frame_sizes_are_one_line(prefix: bytes) -> None:
    with pytest.raises(WireError, match="frame"):
        frame_size(prefix)


def test_short_and_malformed_requests_are_one_line() -> None:
    with pytest.raises(WireError, match="no header"):
        read_header(b"\x00\x13\x00")
    truncated = _frame(build_request(CREATE_TOPICS, 5, topics=(), timeout=datetime.timedelta(0)))[:-3]
    with pytest.raises(WireError, match="can't decode request 19 v5"):
        decode_request(truncated + b"\xff\xff\xff")


def test_a_request_decodes_with_its_own_version() -> None:
    request = decode_request(_frame(metadata_request(9, None)))
    assert request.topics is None and request.__version__ == 9


def test_every_blank_response_of_every_version_encodes_and_reads_back() -> None:
    count = 0
    for api_key in api_key_map:
        for version in range(0, 20):
            if known(api_key, version):
                schema = load_response_schema(api_key, version)
                correlation, _ = _response(encode_response(3, blank(schema)), api_key, version)
                assert correlation == 3
                count += 1
    assert count > 300


def test_blank_keeps_the_values_a_version_has_and_drops_the_others() -> None:
    """One call answers every version: CreateTopics v4's results have no num_partitions (KIP-525 is v5)."""
    v4, v5 = (item_type(load_response_schema(CREATE_TOPICS, v), "topics") for v in (4, 5))
    result4, result5 = blank(v4, name="t", num_partitions=3), blank(v5, name="t", num_partitions=3)
    assert result4.name == "t" and not hasattr(result4, "num_partitions")
    assert result5.num_partitions == 3 and result5.error_code == ErrorCode.none


def test_api_versions_of_an_unknown_version_answers_as_kafka_does() -> None:
    correlation, body = _response(unsupported_api_versions(9), API_VERSIONS, 0)
    assert correlation == 9 and body.error_code == ErrorCode.unsupported_version  # type: ignore[attr-defined]


def test_the_stub_advertises_every_version_kio_or_the_codec_knows() -> None:
    apis, codec = advertised(), catalog_codec()
    assert apis[CREATE_TOPICS] == range(0, 8) and set(api_key_map) | set(codec.apis().values()) == set(apis)
    assert all(apis[key][-1] == codec.versions(key)[-1] for key in codec.apis().values())
    assert apis[METADATA][-1] >= 13 and apis[89][-1] >= 0  # beyond kio: Metadata v13, StreamsGroupDescribe


def test_the_catalog_codec_leaves_out_unstable_versions_and_old_names() -> None:
    codec = catalog_codec()
    assert "ListOffset" not in codec.apis() and codec.versions("ListOffsets")[0] == 0  # renamed, same key
    newest = Codec.for_release(str(list(load_catalog())[-1].newest))
    for api in newest.apis():
        assert not newest.unstable(api) & set(codec.versions(api)) - set(_stable_elsewhere(api))


def _stable_elsewhere(api: str) -> list[int]:
    """Versions of ``api`` some catalog release before the newest ships stable."""
    found: set[int] = set()
    for line in list(load_catalog())[:-1]:
        try:
            release = Codec.for_release(str(line.newest))
        except CodecError:
            continue
        if api in release.apis():
            found |= set(release.versions(api)) - release.unstable(api)
    return sorted(found)


def _codec_exchange(api: str, version: int, body: dict[str, object]) -> tuple[dict[str, Any], StubBroker]:
    """A request only the codec reads, answered by the stub (no socket); the answer read back by the codec."""
    codec = catalog_codec()
    assert not known(codec.apis()[api], version)
    frame = codec.encode_request(api, version, {"CorrelationId": 11, "ClientId": "test"}, body)
    stub = StubBroker()
    try:
        reply = stub.answer(frame[4:])  # the stub is handed frames without their size
    finally:
        stub.close()
    assert reply is not None, stub.recording.problems
    header, response = codec.decode_response(api, version, reply)
    assert header["CorrelationId"] == 11 and stub.recording.problems == []
    return response, stub


@pytest.mark.parametrize(("api", "version", "body"), [
    ("DescribeCluster", 2, {"IncludeFencedBrokers": True}),
    ("ShareGroupDescribe", 1, {"GroupIds": ["g"]}),
    ("StreamsGroupDescribe", 0, {"GroupIds": ["g"]}),
    ("DescribeShareGroupOffsets", 0, {"Groups": [{"GroupId": "g"}]}),
])
def test_the_stub_answers_a_version_only_the_codec_reads_with_a_blank_answer(api: str, version: int,
                                                                            body: dict[str, object]) -> None:
    response, stub = _codec_exchange(api, version, body)
    assert response.get("ErrorCode", 0) == 0 and stub.recording.versions() == {api: (version,)}


def test_a_codec_answer_has_the_content_kios_answer_has() -> None:
    """Metadata v13 names the stub and the topics asked for; ConsumerGroupDescribe v1 its error per group."""
    metadata, stub = _codec_exchange("Metadata", 13, {"Topics": [{"Name": "t", "TopicId": uuid.UUID(int=0)}]})
    assert [(b["NodeId"], b["Port"]) for b in metadata["Brokers"]] == [(1, stub.port)]
    assert [t["Name"] for t in metadata["Topics"]] == ["t"] and metadata["ControllerId"] == 1
    assert metadata["Topics"][0]["Partitions"][0]["IsrNodes"] == [1]
    groups, _ = _codec_exchange("ConsumerGroupDescribe", 1, {"GroupIds": ["g"]})
    assert [(g["GroupId"], g["ErrorCode"]) for g in groups["Groups"]] == [("g", ErrorCode.group_id_not_found.value)]


def test_a_codec_answer_names_a_topic_as_the_request_did() -> None:
    """OffsetCommit v10 names topics by id alone: the answer names each by its id."""
    topic_id = uuid.uuid4()
    committed, _ = _codec_exchange("OffsetCommit", 10, {"GroupId": "g", "Topics": [
        {"TopicId": topic_id, "Partitions": [{"PartitionIndex": 3, "CommittedOffset": 5}]}]})
    assert [(t["TopicId"], [p["PartitionIndex"] for p in t["Partitions"]]) for t in committed["Topics"]] == \
        [(topic_id, [3])]


def test_bytes_after_a_codec_read_request_are_ignored_as_a_broker_ignores_them() -> None:
    """librdkafka 2.12-2.16 send Metadata v13 with 3 bytes after the body; kio's path reads past them too."""
    frame = bytes.fromhex("0003000d00000003000772646b61666b610000000000010000")
    stub = StubBroker()
    try:
        reply = stub.answer(frame)
    finally:
        stub.close()
    assert reply is not None and stub.recording.problems == []
    assert catalog_codec().decode_response("Metadata", 13, reply)[0]["CorrelationId"] == 3


def test_the_stub_answers_api_versions_beyond_kio_with_the_codecs_ceiling() -> None:
    newest = catalog_codec().versions("ApiVersions")[-1]
    answer, _ = _codec_exchange("ApiVersions", newest, {"ClientSoftwareName": "t", "ClientSoftwareVersion": "1"})
    offered = {k["ApiKey"]: k["MaxVersion"] for k in answer["ApiKeys"]}
    assert offered == {key: versions[-1] for key, versions in advertised().items()}


def test_recording_names_apis_and_waits_bounded() -> None:
    recording = Recording()
    recording.add(METADATA, 12)
    recording.add(METADATA, 9)
    recording.add(30000, 1)
    assert recording.versions() == {"30000": (1,), "Metadata": (9, 12)}
    assert recording.wait_for({METADATA}, 0) == set()
    assert recording.wait_for({METADATA, CREATE_TOPICS}, 0.01) == {CREATE_TOPICS}


def test_an_unknown_version_is_recorded_and_the_connection_closed() -> None:
    stub = StubBroker()
    try:
        assert stub.answer(struct.pack(">hhi", METADATA, 99, 1)) is None
        reply = stub.answer(struct.pack(">hhi", API_VERSIONS, 99, 2))
        assert reply is not None and _response(reply, API_VERSIONS, 0)[0] == 2
        assert stub.recording.versions() == {"ApiVersions": (99,), "Metadata": (99,)}
        assert stub.recording.problems == ["Metadata v99: no schema for it in kio or Kafka's definitions; "
                                           "connection closed"]
    finally:
        stub.close()


def test_the_stub_answers_a_wire_connection_as_a_one_node_cluster() -> None:
    with StubBroker() as stub, WireConnection(stub.host, stub.port, timeout=5) as wire:
        versions = {r.api_key: r for r in wire.api_versions()}
        assert versions[CREATE_TOPICS].max_version == 7
        created = wire.send(build_request(CREATE_TOPICS, 7, topics=(), timeout=datetime.timedelta(0)))
        assert created.topics == ()
        metadata = wire.send(metadata_request(12, None))
        assert [(b.node_id, b.port) for b in metadata.brokers] == [(1, stub.port)]
        assert metadata.controller_id == 1
    assert stub.recording.versions() == {"ApiVersions": (0,), "CreateTopics": (7,), "Metadata": (12,)}


def test_a_hostile_frame_closes_that_connection_only() -> None:
    with StubBroker() as stub:
        with socket.create_connection((stub.host, stub.port), timeout=5) as raw:
            raw.sendall(struct.pack(">i", -5))
            assert _closed(raw)
        with WireConnection(stub.host, stub.port, timeout=5) as wire:
            assert wire.api_versions()
    assert any("frame of -5 bytes" in p for p in stub.recording.problems)


def test_close_ends_connections_a_client_keeps_open() -> None:
    stub = StubBroker().__enter__()
    raw = socket.create_connection((stub.host, stub.port), timeout=5)
    try:
        raw.sendall(struct.pack(">i", 100))  # a frame announced, never sent
        stub.close()
        assert _closed(raw)
    finally:
        raw.close()
    assert stub.recording.problems == []  # closing is not a problem



@pytest.mark.parametrize("version", range(10))
def test_the_stub_makes_a_joining_client_the_leader_and_gives_it_its_own_assignment(version: int) -> None:
    """A blank JoinGroup answer leaves a client a member of nothing, so a consumer that commits only its
    partitions (kafkajs's setOffsets) never sends OffsetCommit to the stub; the leader gets its members back."""
    from kio.index import load_request_schema

    from kcompat.harness.recorder.frames import item_type

    join_schema = load_request_schema(11, version)
    protocol = item_type(join_schema, "protocols")(name="range", metadata=b"\x00\x01")
    sync_version = min(version, 5)
    with StubBroker() as stub, WireConnection(stub.host, stub.port, timeout=5) as wire:
        rebalance = {"rebalance_timeout": datetime.timedelta(seconds=10)} if version >= 1 else {}
        joined = wire.send(build_request(11, version, group_id="g", session_timeout=datetime.timedelta(seconds=10),
                                         **rebalance, member_id="",
                                         protocol_type="consumer", protocols=(protocol,)))
        assert joined.error_code == ErrorCode.none and joined.leader == joined.member_id != ""
        assert [(m.member_id, m.metadata) for m in joined.members] == [(joined.member_id, b"\x00\x01")]
        assert joined.protocol_name == "range"
        sync_schema = load_request_schema(14, sync_version)
        others = item_type(sync_schema, "assignments")
        named = {"protocol_type": "consumer", "protocol_name": "range"} if sync_version >= 5 else {}
        synced = wire.send(build_request(14, sync_version, group_id="g", generation_id=joined.generation_id,
                                         member_id=joined.member_id, **named, assignments=(others(member_id="other", assignment=b"theirs"),
                                                      others(member_id=joined.member_id, assignment=b"mine"))))
        assert synced.error_code == ErrorCode.none and synced.assignment == b"mine"
