"""Pure logic of the topics group: the records set-up's encodings and the wire client's result shaping."""

from __future__ import annotations

import struct
import zlib

import crc32c
from kio.records.readers import read_batch

from kcompat.harness.operations.describe_cluster.wire import NOT_SUPPLIED, operation_names
from kcompat.harness.matrix.setups.records import batch_v2, message_set_v1
from kcompat.harness.operations.delete_records import PartitionOffset
from kcompat.harness.operations.list_offsets import OffsetQuery

TIMES = [1_700_000_040_000, 1_700_000_000_000, 1_700_000_020_000]


def test_a_batch_of_magic_2_reads_back_with_its_exact_timestamps_and_a_valid_crc() -> None:
    data = batch_v2(TIMES, [b"a", b"b", b"c"])
    batch, size = read_batch(data, 0)
    assert size == len(data)
    assert [int(r.timestamp.timestamp() * 1000 + 0.5) for r in batch.records] == TIMES
    assert batch.max_timestamp == max(TIMES) and batch.base_timestamp == TIMES[0]
    assert [r.value for r in batch.records] == [b"a", b"b", b"c"] and batch.last_offset_delta == 2
    assert batch.crc == crc32c.crc32c(data[21:])  # attributes onwards


def test_a_message_set_of_magic_1_carries_one_checked_message_per_record() -> None:
    data = message_set_v1(TIMES, [b"a", b"b", b"c"])
    position, seen = 0, []
    while position < len(data):
        offset, size = struct.unpack_from(">qi", data, position)
        message = data[position + 12:position + 12 + size]
        (crc,) = struct.unpack_from(">I", message)
        magic, attributes, timestamp = struct.unpack_from(">bbq", message, 4)
        assert crc == zlib.crc32(message[4:]) and magic == 1 and attributes == 0
        seen.append((offset, timestamp, message[-1:]))
        position += 12 + size
    assert seen == [(0, TIMES[0], b"a"), (1, TIMES[1], b"b"), (2, TIMES[2], b"c")]


def test_authorized_operations_are_named_from_their_bits_and_none_when_not_supplied() -> None:
    assert operation_names(NOT_SUPPLIED) is None
    assert operation_names((1 << 8) | (1 << 3) | (1 << 20)) == ["DESCRIBE", "READ", "UNKNOWN_20"]
    assert operation_names(0) == []


def test_partition_results_are_named_topic_colon_partition_by_every_client() -> None:
    assert PartitionOffset("t", 3, 10).label == "t:3" == OffsetQuery("t", 3, "latest").label
