"""Records with given timestamps, produced as the super user through the wire client (kio's Produce).

The wire client, not confluent_kafka.Producer: it is what every cell's set-up
already uses (confluent-kafka is an optional extra, and a confluent release
other than the installed one runs its cells in a venv of its own), and it
writes exactly the timestamps asked for, as integers, on every broker of the
axis.  Brokers before 0.11 (0.10.2) take Produce v0-v2 only, whose records are
a message set of magic 1; 0.11 and later take record batches of magic 2
(Produce v3+), the only ones Kafka 4.0 still accepts (KIP-896).  Both formats
are encoded here (kio 0.5 writes batches from datetimes, which can round a
millisecond away).  Records are sent with acks=-1, so once Produce answers
they are below the high watermark: ListOffsets' latest and DeleteRecords see them.
"""

from __future__ import annotations

import datetime
import io
import struct
import zlib
from collections.abc import Sequence
from typing import Any

import crc32c
from kio.static.primitive import Records, i32Timedelta

from ...clients.base import error_name
from ...clients.wire import WireClient
from ...protocol import METADATA, build_request, metadata_request, nested_type, pick_version
from ...waiting import attempts
from ..probe import ProbeFailed

PRODUCE = 0
SETTLE = 30.0
"""Seconds a set-up waits for a new topic's partition to take records (its leader is elected after CreateTopics)."""
_TIMEOUT = i32Timedelta.parse(datetime.timedelta(seconds=30))
_RETRIABLE = frozenset({"LEADER_NOT_AVAILABLE", "NOT_LEADER_OR_FOLLOWER", "UNKNOWN_TOPIC_OR_PARTITION",
                        "NOT_ENOUGH_REPLICAS", "REQUEST_TIMED_OUT"})
_MAGIC_2_FROM = 3
"""The first Produce version whose records are batches of magic 2."""
_METADATA_BY_NAME = 9
"""The newest Metadata version whose topic entries are names only (v10 added topic ids)."""


def _varint(value: int) -> bytes:
    """A zig-zag varint (Kafka's signed varint and varlong alike)."""
    zigzag = (value << 1) ^ (value >> 63)
    out = bytearray()
    while True:
        byte = zigzag & 0x7F
        zigzag >>= 7
        if zigzag:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _sized(data: bytes | None, varint: bool) -> bytes:
    if data is None:
        return _varint(-1) if varint else struct.pack(">i", -1)
    return (_varint(len(data)) if varint else struct.pack(">i", len(data))) + data


def batch_v2(timestamps: Sequence[int], values: Sequence[bytes]) -> bytes:
    """One record batch of magic 2 (0.11+): no key, no headers, create-time timestamps as given."""
    base = timestamps[0]
    records = io.BytesIO()
    for delta, (timestamp, value) in enumerate(zip(timestamps, values, strict=True)):
        body = (b"\x00" + _varint(timestamp - base) + _varint(delta) + _sized(None, True) + _sized(value, True)
                + _varint(0))
        records.write(_varint(len(body)) + body)
    after_crc = (struct.pack(">hiqqqhii", 0, len(timestamps) - 1, base, max(timestamps), -1, -1, -1,
                             len(timestamps)) + records.getvalue())
    crc = crc32c.crc32c(after_crc)
    return struct.pack(">qiibI", 0, len(after_crc) + 9, -1, 2, crc) + after_crc


def message_set_v1(timestamps: Sequence[int], values: Sequence[bytes]) -> bytes:
    """A message set of magic 1 (0.10's format): one uncompressed message per record, create-time timestamps."""
    out = io.BytesIO()
    for offset, (timestamp, value) in enumerate(zip(timestamps, values, strict=True)):
        after_crc = struct.pack(">bbq", 1, 0, timestamp) + _sized(None, False) + _sized(value, False)
        message = struct.pack(">I", zlib.crc32(after_crc)) + after_crc
        out.write(struct.pack(">qi", offset, len(message)) + message)
    return out.getvalue()


def _leader(admin: WireClient, topic: str, partition: int) -> tuple[str, int] | None:
    """The partition's leader as Metadata shows it to the super user; None while it has none."""
    conn, offered = admin.connection()
    version = min(max(1, pick_version(METADATA, offered)), _METADATA_BY_NAME)
    entry: Any = nested_type(METADATA, version, "MetadataRequestTopic", topics=(), allow_auto_topic_creation=False,
                             include_cluster_authorized_operations=False, include_topic_authorized_operations=False)
    response = conn.send(metadata_request(version, (entry(name=topic),)))
    brokers = {int(b.node_id): (str(b.host), int(b.port)) for b in response.brokers}
    for item in response.topics:
        if str(item.name) == topic and int(item.error_code) == 0:
            for p in item.partitions:
                if int(p.partition_index) == partition and int(p.leader_id) in brokers:
                    return brokers[int(p.leader_id)]
    return None


def produce(admin: WireClient, topic: str, timestamps: Sequence[int], *, partition: int = 0) -> int:
    """Set-up: one record per timestamp (create time, ms) to ``topic``'s ``partition``, in one request to its
    leader, retried (bounded) while the new partition has no leader yet; the base offset it got.  A refusal
    is ``ProbeFailed``."""
    if not timestamps:
        raise ProbeFailed("set-up: producing needs at least one record")
    values = [f"kcompat-{i}".encode() for i in range(len(timestamps))]
    error = "no leader"
    for _ in attempts(SETTLE, interval=0.2):
        leader = _leader(admin, topic, partition)
        if leader is None:
            continue
        conn, offered = admin.connection(leader)
        version = pick_version(PRODUCE, offered)
        data = batch_v2(timestamps, values) if version >= _MAGIC_2_FROM else message_set_v1(timestamps, values)
        partition_data: Any = nested_type(PRODUCE, version, "PartitionProduceData", acks=-1, timeout=_TIMEOUT,
                                          topic_data=(), transactional_id=None)
        topic_data: Any = nested_type(PRODUCE, version, "TopicProduceData", acks=-1, timeout=_TIMEOUT,
                                      topic_data=(), transactional_id=None)
        request = build_request(PRODUCE, version, acks=-1, timeout=_TIMEOUT, transactional_id=None, topic_data=(
            topic_data(name=topic, partition_data=(partition_data(index=partition, records=Records.parse(data)),)),))
        response = conn.send(request)
        answer = response.responses[0].partition_responses[0]
        error = error_name(int(answer.error_code))
        if error == "NONE":
            return int(answer.base_offset)
        if error not in _RETRIABLE:
            break
    raise ProbeFailed(f"set-up: producing {len(timestamps)} record(s) to {topic}-{partition} as the super user "
                      f"gave {error}")


__all__ = ["batch_v2", "message_set_v1", "produce"]
