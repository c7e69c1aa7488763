"""What the wire client's group operations share: requests built from the definitions by field name, and the
group coordinator, found the way every client finds it (FindCoordinator, then the group's requests go there).

Group requests change shape across versions more than the topic ones (OffsetFetch v8 batches groups,
FindCoordinator v4 batches keys), so a request is built with the values the version has fields for
(``request``; the others take their defaults), instead of one nested struct name per version.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable, Sequence
from typing import Any

from ....errors import WireError
from ....messages import Entry, Fields, Part, names
from ....protocol import METADATA, Request, metadata_request, pick_version, request_type
from ....waiting import attempts
from ...base import AdminResult, ResourceOutcome, error_name
from ...wire import WireClient, Refused

FIND_COORDINATOR, OFFSET_COMMIT, OFFSET_FETCH, JOIN_GROUP, HEARTBEAT = 10, 8, 9, 11, 12
LEAVE_GROUP, SYNC_GROUP, DESCRIBE_GROUPS, LIST_GROUPS, DELETE_GROUPS, OFFSET_DELETE = 13, 14, 15, 16, 42, 47
COORDINATOR_WAIT = 30.0
"""Seconds a group's coordinator may stay unavailable (the broker creates __consumer_offsets on first ask)."""
_NOT_YET = frozenset({"COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS"})
Address = tuple[str, int]
Build = Callable[[int, dict[str, bool]], Any]


def request(api_key: int, version: int, **values: Any) -> Request:
    """The request of this version with ``values`` for the fields it has (the others at their defaults)."""
    return Request(api_key, version, request_type(api_key, version).values(values, strict=False))


def items(entity: Part | Request, field: str, values: Sequence[dict[str, Any]]) -> tuple[Entry, ...]:
    """Entries of ``entity``'s list field ``field`` (a request, or a struct of one), each from a dict by field
    name (fields the version lacks left out)."""
    kind = _part(entity).element(field)
    return tuple(Entry(kind.values(value, strict=False)) for value in values)


def element(entity: Part | Request, *path: str) -> Part:
    """The entry struct at a path of list fields (``element(request_type(OFFSET_FETCH, v), "topics")``)."""
    found = _part(entity)
    for field in path:
        found = found.element(field)
    return found


def has(entity: Part | Request | Fields, field: str) -> bool:
    """Whether a request (or a struct of one) at its version, or a decoded response struct, has ``field``."""
    return field in names(entity) if isinstance(entity, Fields) else _part(entity).has(field)


def _part(entity: Part | Request) -> Part:
    return request_type(entity.api_key, entity.version) if isinstance(entity, Request) else entity


def timedelta_ms(ms: int) -> datetime.timedelta:
    """A duration field's value (requests take a duration or its ms)."""
    return datetime.timedelta(milliseconds=ms)


def refused(operation: str, exc: Refused) -> AdminResult:
    """The record ``WireClient._send`` carries out when the broker refused the version (or lacks the API)."""
    return dataclasses.replace(exc.result, operation=operation)


@dataclasses.dataclass(frozen=True)
class Coordinator:
    """FindCoordinator's answer for a group: where to send its requests, or the error instead."""

    address: Address | None
    node_id: int | None
    error: str
    message: str | None = None


def coordinator(client: WireClient, group: str) -> Coordinator:
    """The group's coordinator: FindCoordinator at the newest common version, asked again (bounded) while
    the coordinator is not available yet, as every client does."""
    conn, offered = client.connection()
    version = pick_version(FIND_COORDINATOR, offered)
    error, message = "COORDINATOR_NOT_AVAILABLE", None
    for _ in attempts(COORDINATOR_WAIT, interval=0.2):
        if version >= 4:
            response = conn.send(request(FIND_COORDINATOR, version, key_type=0, coordinator_keys=(group,)))
            answer: Any = response.coordinators[0]
        else:
            answer = conn.send(request(FIND_COORDINATOR, version, key=group, key_type=0))
        error = error_name(int(answer.error_code))
        message = getattr(answer, "error_message", None)
        if error == "NONE":
            return Coordinator((str(answer.host), int(answer.port)), int(answer.node_id), error)
        if error not in _NOT_YET:
            break
    return Coordinator(None, None, error, message)


def send_to_coordinator(client: WireClient, operation: str, api_key: int, group: str, version: int | None,
                        build: Build, options: dict[str, bool] | None = None) -> tuple[int, Any] | AdminResult:
    """Send a group's request to its coordinator: (version sent, response), or the call's record where the
    coordinator could not be found (its error as the group's outcome) or the version was refused."""
    try:
        found = coordinator(client, group)
        if found.address is None:
            return AdminResult(operation, client.kind, client.version, None,
                               (ResourceOutcome(group, _code(found.error), found.error, found.message),))
        sent, response, _ = client.send(operation, api_key, version, build, options or {},
                                         broker=found.address)
    except Refused as exc:
        return refused(operation, exc)
    return sent, response


def commit_request(version: int, group: str, offsets: Sequence[tuple[str, int, int]], *, generation: int = -1,
                   member_id: str = "", instance_id: str | None = None) -> Request:
    """OffsetCommit of (topic, partition, offset) triples; by default as no member (generation -1), which a
    group without members accepts; the retention and timestamp the version has are the broker's default."""
    schema = request_type(OFFSET_COMMIT, version)
    topic_type = element(schema, "topics")
    grouped: dict[str, list[tuple[int, int]]] = {}
    for topic, partition, offset in offsets:
        grouped.setdefault(topic, []).append((partition, offset))
    topics = items(schema, "topics", [{"name": topic, "partitions": items(topic_type, "partitions", [
        {"partition_index": p, "committed_offset": o, "commit_timestamp": -1, "committed_leader_epoch": -1,
         "committed_metadata": ""} for p, o in partitions])} for topic, partitions in grouped.items()])
    return request(OFFSET_COMMIT, version, group_id=group, generation_id_or_member_epoch=generation,
                   member_id=member_id, group_instance_id=instance_id, retention_time=-1,
                   topics=topics)


def partition_outcomes(topics: Any, **extra: Any) -> list[ResourceOutcome]:
    """One outcome per partition of a response's topics (``topic:partition``), with ``extra`` fields read
    from each partition entry by attribute name where the version has them."""
    outcomes = []
    for topic in topics:
        for partition in topic.partitions:
            fields = {key: getattr(partition, attribute) for key, attribute in extra.items()
                      if has(partition, attribute)}
            message = getattr(partition, "error_message", None)
            outcomes.append(ResourceOutcome.of(f"{topic.name}:{int(partition.partition_index)}",
                                               int(partition.error_code), message, **fields))
    return outcomes


def by_topic(pairs: Sequence[tuple[str, int]]) -> dict[str, list[int]]:
    """(topic, partition) pairs grouped by topic, in their order."""
    grouped: dict[str, list[int]] = {}
    for topic, partition in pairs:
        grouped.setdefault(topic, []).append(partition)
    return grouped


def brokers(client: WireClient) -> list[Address]:
    """Every broker's address, as Metadata (no topics) lists them."""
    conn, offered = client.connection()
    response = conn.send(metadata_request(max(1, pick_version(METADATA, offered)), ()))
    return sorted((str(b.host), int(b.port)) for b in response.brokers)


def _code(name: str) -> int:
    try:
        return next(code for code in range(-1, 256) if error_name(code) == name)
    except StopIteration as exc:
        raise WireError(f"no Kafka error named {name}") from exc
