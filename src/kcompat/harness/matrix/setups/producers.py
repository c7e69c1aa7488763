"""Producers the probes of producer state and transactions need, made with the super user's wire client.

An idempotent producer that wrote to a partition (DescribeProducers lists it)
and a transactional producer whose transaction stays open while the probe
observes (DescribeTransactions, ListTransactions, fenceProducers and
abortTransaction need one).  They speak the protocol through kio rather than
through a client library: the harness's own confluent-kafka may be imported
by one module only, and requests we build ourselves work the same on every
broker with transactions (0.11 on: InitProducerId, AddPartitionsToTxn,
Produce of a v2 record batch, EndTxn).  Every wait is bounded by
``SETTLE``; a refusal is ``ProbeFailed`` (the cell's ``fail``).
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from kio.records.schema import NewRecordBatch, Record
from kio.records.writers import write_new_batch
from kio.static.primitive import Records, TZAwareMicros, i8, i16, i32, i64, i32Timedelta

from ...clients import error_name
from ...clients.routing import coordinator, leader
from ...clients.wire import WireClient
from ...protocol import METADATA, build_request, metadata_request, nested_type, pick_version, request_fields
from ...waiting import attempts
from ..probe import ProbeFailed

SETTLE = 30.0
"""Seconds a set-up step retries while the cluster is still getting ready (a coordinator loading, a new
partition without a leader yet)."""
TRANSACTION_TIMEOUT = datetime.timedelta(seconds=120)
"""How long the broker keeps an open transaction: it aborts one whose abort at the end was lost, in bounds."""
PRODUCE, LIST_OFFSETS, INIT_PRODUCER_ID, ADD_PARTITIONS_TO_TXN, END_TXN = 0, 2, 22, 24, 26
TRANSACTION_LOG = "__transaction_state"
LATEST, READ_UNCOMMITTED, READ_COMMITTED = -1, 0, 1
_ADD_PARTITIONS_CLIENT_MAX = 3
"""AddPartitionsToTxn v4+ is the brokers' own batched form (KIP-890): clients send v3 or older."""
_RETRIABLE = frozenset({"LEADER_NOT_AVAILABLE", "NOT_LEADER_OR_FOLLOWER", "UNKNOWN_TOPIC_OR_PARTITION",
                        "COORDINATOR_LOAD_IN_PROGRESS", "COORDINATOR_NOT_AVAILABLE", "NOT_COORDINATOR",
                        "CONCURRENT_TRANSACTIONS", "NOT_ENOUGH_REPLICAS"})
_TRANSACTIONAL = 0x10
"""The record batch attribute bit of a transactional batch."""


@dataclass(frozen=True)
class Producer:
    """A producer id and epoch the broker handed out, and where it wrote."""

    producer_id: int
    producer_epoch: int
    topic: str
    partition: int
    transactional_id: str | None = None


def _retry(what: str, step: Callable[[], tuple[str, Any]]) -> Any:
    """Run ``step`` (-> (error name, value)) until its error is NONE, retrying the retriable ones within SETTLE."""
    error = "no attempt"
    for _ in attempts(SETTLE, interval=0.2):
        error, value = step()
        if error == "NONE":
            return value
        if error not in _RETRIABLE:
            break
    raise ProbeFailed(f"set-up: {what} as the super user gave {error}")


def _coordinator(admin: WireClient, transactional_id: str) -> tuple[str, int]:
    def step() -> tuple[str, Any]:
        code, address = coordinator(admin, transactional_id)
        return error_name(code), address

    found: tuple[str, int] = _retry(f"FindCoordinator of transactional id {transactional_id}", step)
    return found


def _leader(admin: WireClient, topic: str, partition: int) -> tuple[str, int]:
    def step() -> tuple[str, Any]:
        address = leader(admin, topic, partition)
        return ("NONE", address) if address is not None else ("LEADER_NOT_AVAILABLE", None)

    found: tuple[str, int] = _retry(f"the leader of {topic}-{partition}", step)
    return found


def _send(admin: WireClient, address: tuple[str, int], api_key: int, build: Callable[[int], Any],
          ceiling: int | None = None) -> Any:
    conn, offered = admin.connection(address)
    version = pick_version(api_key, offered)
    if ceiling is not None:
        version = min(version, ceiling)
    return conn.send(build(version))


def _init_producer_id(admin: WireClient, address: tuple[str, int], transactional_id: str | None) -> tuple[int, int]:
    def build(version: int) -> Any:
        fresh = {"producer_id": -1, "producer_epoch": -1} if "producer_id" in request_fields(
            INIT_PRODUCER_ID, version) else {}
        return build_request(INIT_PRODUCER_ID, version, transactional_id=transactional_id,
                             transaction_timeout=i32Timedelta.parse(TRANSACTION_TIMEOUT), **fresh)

    def step() -> tuple[str, Any]:
        response = _send(admin, address, INIT_PRODUCER_ID, build)
        return error_name(int(response.error_code)), (int(response.producer_id), int(response.producer_epoch))

    found: tuple[int, int] = _retry(f"InitProducerId ({transactional_id or 'idempotent'})", step)
    return found


def _records(producer_id: int, epoch: int, sequence: int, count: int, transactional: bool) -> Records:
    now = datetime.datetime.now(datetime.UTC)
    batch = NewRecordBatch(
        producer_id=i64(producer_id), producer_epoch=i16(epoch), base_sequence=i32(sequence),
        attributes=i16(_TRANSACTIONAL if transactional else 0),
        records=tuple(Record(attributes=i8(0), timestamp=TZAwareMicros.parse(now), offset=i64(n), key=None,
                             value=f"kcompat-{n}".encode(), headers=()) for n in range(count)))
    buffer = io.BytesIO()
    write_new_batch(buffer, batch)
    return Records(buffer.getvalue())


def _produce(admin: WireClient, producer: Producer, count: int) -> None:
    """``count`` records in one batch from sequence 0, acks=all; the partition's error is ProbeFailed."""
    address = _leader(admin, producer.topic, producer.partition)
    records = _records(producer.producer_id, producer.producer_epoch, 0, count, producer.transactional_id is not None)

    def build(version: int) -> Any:
        partition = nested_type(PRODUCE, version, "PartitionProduceData")(index=producer.partition, records=records)
        topic = nested_type(PRODUCE, version, "TopicProduceData")(name=producer.topic, partition_data=(partition,))
        return build_request(PRODUCE, version, transactional_id=producer.transactional_id, acks=-1,
                             timeout=_TIMEOUT, topic_data=(topic,))

    def step() -> tuple[str, Any]:
        response = _send(admin, address, PRODUCE, build)
        codes = [int(p.error_code) for t in response.responses for p in t.partition_responses]
        return (error_name(codes[0]) if codes else "NO_ANSWER"), None

    _retry(f"producing to {producer.topic}-{producer.partition}", step)


_TIMEOUT = i32Timedelta.parse(datetime.timedelta(seconds=30))


def idempotent_producer(admin: WireClient, topic: str, partition: int = 0, records: int = 3) -> Producer:
    """An idempotent producer (a producer id, no transactional id) that wrote ``records`` records to the
    partition: the broker keeps its state there (DescribeProducers lists it, last sequence ``records - 1``)."""
    address = _leader(admin, topic, partition)
    producer_id, epoch = _init_producer_id(admin, address, None)
    producer = Producer(producer_id, epoch, topic, partition)
    _produce(admin, producer, records)
    return producer


@contextmanager
def open_transaction(admin: WireClient, transactional_id: str, topic: str, partition: int = 0,
                     records: int = 1) -> Iterator[Producer]:
    """A transaction open for the ``with`` block: begun, the partition added, ``records`` records written,
    neither committed nor aborted.  Aborted on the way out (bounded); if that abort is lost, the broker aborts
    it after ``TRANSACTION_TIMEOUT``."""
    address = _coordinator(admin, transactional_id)
    producer_id, epoch = _init_producer_id(admin, address, transactional_id)
    producer = Producer(producer_id, epoch, topic, partition, transactional_id)

    def add(version: int) -> Any:
        entry = nested_type(ADD_PARTITIONS_TO_TXN, version, "AddPartitionsToTxnTopic")(name=topic,
                                                                                      partitions=(partition,))
        return build_request(ADD_PARTITIONS_TO_TXN, version, v3_and_below_transactional_id=transactional_id,
                             v3_and_below_producer_id=producer_id, v3_and_below_producer_epoch=epoch,
                             v3_and_below_topics=(entry,))

    def step() -> tuple[str, Any]:
        response = _send(admin, address, ADD_PARTITIONS_TO_TXN, add, _ADD_PARTITIONS_CLIENT_MAX)
        codes = [int(p.partition_error_code) for t in response.results_by_topic_v3_and_below
                 for p in t.results_by_partition]
        return (error_name(codes[0]) if codes else "NO_ANSWER"), None

    _retry(f"AddPartitionsToTxn of {topic}-{partition} to {transactional_id}", step)
    try:
        _produce(admin, producer, records)
        yield producer
    finally:
        end_transaction(admin, producer, commit=False)


def end_transaction(admin: WireClient, producer: Producer, *, commit: bool) -> str:
    """EndTxn of the producer's transaction (bounded retries); the last error's name, never raised: a
    transaction already ended (or fenced by the probe) is how a probe may leave it."""
    assert producer.transactional_id is not None
    error = "no attempt"
    for _ in attempts(SETTLE, interval=0.2):
        address = coordinator(admin, producer.transactional_id)[1]
        if address is not None:
            response = _send(admin, address, END_TXN, lambda v: build_request(
                END_TXN, v, transactional_id=producer.transactional_id, producer_id=producer.producer_id,
                producer_epoch=producer.producer_epoch, committed=commit))
            error = error_name(int(response.error_code))
            if error not in _RETRIABLE:
                break
    return error


def coordinator_epoch(admin: WireClient, transactional_id: str) -> int:
    """The coordinator epoch of a transactional id (what abortTransaction's spec asks for): the leader epoch of
    its ``__transaction_state`` partition (abs(hashCode) mod the partitions, as the coordinator places it), read
    from Metadata (v7+, 2.1 on); an older broker's is taken as 0, the epoch of a never-moved partition."""
    conn, offered = admin.connection()
    response = conn.send(metadata_request(max(1, pick_version(METADATA, offered)), None))
    log = next((t for t in response.topics if str(t.name) == TRANSACTION_LOG), None)
    if log is None or not log.partitions:
        raise ProbeFailed(f"set-up: Metadata shows no {TRANSACTION_LOG} after a transaction began")
    index = (java_hash(transactional_id) & 0x7FFFFFFF) % len(log.partitions)
    partition = next(p for p in log.partitions if int(p.partition_index) == index)
    return max(0, int(getattr(partition, "leader_epoch", 0)))


def java_hash(text: str) -> int:
    """Java's ``String.hashCode`` (UTF-16 code units, 32-bit wrap-around), signed."""
    value = 0
    for unit in text.encode("utf-16-be").hex(" ", 2).split():
        value = (31 * value + int(unit, 16)) & 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def offsets(admin: WireClient, topic: str, partition: int) -> tuple[int, int]:
    """(last stable offset, high watermark) of a partition, by ListOffsets at READ_COMMITTED and
    READ_UNCOMMITTED: an open transaction holds the first at its start, an aborted or committed one does not."""
    address = _leader(admin, topic, partition)

    def latest(isolation: int) -> int:
        def build(version: int) -> Any:
            empty = {"replica_id": -1, "isolation_level": isolation, "topics": ()}
            wanted = nested_type(LIST_OFFSETS, version, "ListOffsetsTopic")(name=topic, partitions=(
                nested_type(LIST_OFFSETS, version, "ListOffsetsPartition")(partition_index=partition,
                                                                           timestamp=LATEST),))
            return build_request(LIST_OFFSETS, version, **{**empty, "topics": (wanted,)})

        def step() -> tuple[str, Any]:
            response = _send(admin, address, LIST_OFFSETS, build)
            found = [p for t in response.topics for p in t.partitions]
            return (error_name(int(found[0].error_code)), int(found[0].offset)) if found else ("NO_ANSWER", None)

        offset: int = _retry(f"ListOffsets of {topic}-{partition}", step)
        return offset

    return latest(READ_COMMITTED), latest(READ_UNCOMMITTED)


__all__ = ["Producer", "coordinator_epoch", "end_transaction", "idempotent_producer", "java_hash", "offsets",
           "open_transaction"]
