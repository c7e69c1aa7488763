"""The share- and streams-group operations' pure logic: the API names beyond kio, the wire client's records of
what it can't send, the set-up's share-group entities on the wire, and the kinds that lack the methods."""

from __future__ import annotations

import datetime
import io
import uuid
from types import SimpleNamespace
from typing import Any

import pytest
from kio.serial import entity_reader, entity_writer
from kio.schema.errors import ErrorCode
from kio.static.primitive import i32, i32Timedelta, i64

from kcompat.harness.clients.kinds.wire.unsendable import beyond_kio, no_schema
from kcompat.harness.matrix.claims import API_KEYS
from kcompat.harness.matrix.setups._share_offsets import (
    AlteredPartition,
    AlteredTopic,
    AlterPartition,
    AlterShareGroupOffsetsRequest,
    AlterShareGroupOffsetsResponse,
    AlterTopic,
    DescribedGroup,
    DescribedPartition,
    DescribedTopic,
    DescribeGroup,
    DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsResponse,
)
from kcompat.harness.operations import operations
from kcompat.harness.protocol import BEYOND_KIO, ApiVersionRange, api_name

NEW = ("describe_share_groups", "list_share_group_offsets", "alter_share_group_offsets",
       "delete_share_group_offsets", "delete_share_groups", "describe_streams_groups",
       "list_streams_group_offsets", "alter_streams_group_offsets", "delete_streams_group_offsets",
       "delete_streams_groups")


def test_apis_kio_lacks_have_kafkas_names_for_claims_and_limits() -> None:
    assert api_name(90) == "DescribeShareGroupOffsets" and api_name(89) == "StreamsGroupDescribe"
    assert api_name(77) == "ShareGroupDescribe"  # kio's own name wins where it has one
    assert api_name(9999) is None
    assert {name: API_KEYS[name] for name in BEYOND_KIO.values()} == {v: k for k, v in BEYOND_KIO.items()}
    assert {operations()[op].api for op in NEW} <= set(API_KEYS)


def _wire(offered: dict[int, tuple[int, int]]) -> Any:
    ranges = {key: ApiVersionRange(key, low, high) for key, (low, high) in offered.items()}
    return SimpleNamespace(kind="wire", version="0.5.0", api_versions=lambda: ranges)


def test_a_broker_offering_only_versions_beyond_kio_gets_nothing() -> None:
    result = beyond_kio(_wire({77: (1, 1)}), "describe_share_groups", 77, None)
    assert result is not None and result.exception == "UnsupportedVersion" and result.request_version is None
    assert "ShareGroupDescribe v1-v1, kio 0-0; nothing was sent" in str(result.exception_message)


@pytest.mark.parametrize(("offered", "pin"), [({77: (0, 0)}, None), ({}, None), ({77: (1, 1)}, 0)])
def test_a_version_kio_has_goes_ahead(offered: dict[int, tuple[int, int]], pin: int | None) -> None:
    """Offered v0 (brokers 4.0), not offered at all (the send records the broker's lack), or pinned."""
    assert beyond_kio(_wire(offered), "describe_share_groups", 77, pin) is None


def test_an_api_without_a_kio_schema_is_a_record_not_an_exception() -> None:
    result = no_schema(_wire({}), "alter_share_group_offsets", 91)
    assert (result.operation, result.client, result.exception) == ("alter_share_group_offsets", "wire",
                                                                  "UnsupportedVersion")
    assert result.exception_message == ("kio 0.5.0 has no schema of AlterShareGroupOffsets (API key 91); "
                                        "nothing was sent")


def _bytes(entity: Any) -> bytes:
    out = io.BytesIO()
    entity_writer(type(entity))(out, entity)
    return out.getvalue()


def test_the_set_ups_share_group_requests_are_kafkas_flexible_v0() -> None:
    alter = AlterShareGroupOffsetsRequest(group_id="g", topics=(AlterTopic(topic_name="t", partitions=(
        AlterPartition(partition_index=i32(0), start_offset=i64(2)),)),))
    # compact strings and arrays (length + 1), an int32 index, an int64 offset, empty tagged fields
    assert _bytes(alter) == bytes.fromhex("0267" "02" "0274" "02" "00000000" "0000000000000002" "00" "00" "00")
    describe = DescribeShareGroupOffsetsRequest(groups=(DescribeGroup(group_id="g", topics=None),))
    assert _bytes(describe) == bytes.fromhex("02" "0267" "00" "00" "00")  # null topics: every partition


@pytest.mark.parametrize("response", [
    AlterShareGroupOffsetsResponse(throttle_time=i32Timedelta.parse(datetime.timedelta(0)), error_code=ErrorCode.none, error_message=None,
                                   responses=(AlteredTopic(topic_name="t", topic_id=uuid.uuid4(), partitions=(
                                       AlteredPartition(partition_index=i32(0), error_code=ErrorCode.none),)),)),
    DescribeShareGroupOffsetsResponse(throttle_time=i32Timedelta.parse(datetime.timedelta(0)), groups=(DescribedGroup(
        group_id="g", error_code=ErrorCode.group_id_not_found, error_message="Group g not found.", topics=(DescribedTopic(
            topic_name="t", topic_id=uuid.uuid4(), partitions=(DescribedPartition(
                partition_index=i32(0), start_offset=i64(3), leader_epoch=i32(0), error_code=ErrorCode.none),)),)),)),
])
def test_the_set_ups_share_group_responses_read_back(response: Any) -> None:
    read, _ = entity_reader(type(response))(_bytes(response), 0)
    assert read == response


@pytest.mark.parametrize("name", NEW)
def test_confluent_kafka_says_it_lacks_each_method_as_data(name: str) -> None:
    from kcompat.harness.clients.confluent import ConfluentClient

    module = __import__(f"kcompat.harness.operations.{name}.confluent", fromlist=[name])
    client = SimpleNamespace(kind="confluent", version="2.16.1", librdkafka_version="2.16.0")
    operation = operations()[name]
    result = getattr(module, name)(client, operation.samples("t")[0], None)
    assert operation.implementation(object.__new__(ConfluentClient)) is not None
    assert (result.operation, result.exception, result.request_version) == (name, "NotImplementedError", None)
    assert result.exception_message == f"confluent-kafka 2.16.1 has no AdminClient.{name}"
    assert result.librdkafka_version == "2.16.0"
