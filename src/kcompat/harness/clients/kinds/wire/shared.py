"""What the wire client's newer operations share: partition-addressed requests (ListOffsets, DeleteRecords) go
to each partition's leader, read from Metadata as the client itself (no client library does it for us); a
request a version can't express is recorded as sent nowhere."""

from __future__ import annotations

from collections.abc import Iterable
from ....protocol import METADATA, metadata_request, nested_type, pick_version
from ...base import AdminResult
from ...wire import WireClient

_METADATA_BY_NAME = 9
"""The newest Metadata version whose topic entries are names only (v10 added topic ids)."""


def leaders(client: WireClient, topics: Iterable[str]) -> dict[tuple[str, int], tuple[str, int]]:
    """(topic, partition) -> its leader's address, for the partitions that have a leader the client can see."""
    conn, offered = client.connection()
    version = min(max(1, pick_version(METADATA, offered)), _METADATA_BY_NAME)
    entry = nested_type(METADATA, version, "MetadataRequestTopic")
    response = conn.send(metadata_request(version, tuple(entry(name=t) for t in sorted(set(topics)))))
    brokers = {int(b.node_id): (str(b.host), int(b.port)) for b in response.brokers}
    return {(str(t.name), int(p.partition_index)): brokers[int(p.leader_id)]
            for t in response.topics for p in t.partitions if int(p.leader_id) in brokers}


def by_leader(client: WireClient, partitions: Iterable[tuple[str, int]]) -> dict[tuple[str, int] | None,
                                                                               list[tuple[str, int]]]:
    """The partitions grouped by leader; those without one under None (sent to the first broker, which
    answers their error)."""
    wanted = list(partitions)
    found = leaders(client, (t for t, _ in wanted))
    groups: dict[tuple[str, int] | None, list[tuple[str, int]]] = {}
    for partition in wanted:
        groups.setdefault(found.get(partition), []).append(partition)
    return groups


def nothing_sent(client: WireClient, operation: str, message: str, lacking: tuple[str, ...] = ()) -> AdminResult:
    """The record of a request this version can't express: the wire client's refusal, nothing sent."""
    return AdminResult(operation, client.kind, client.version, None, exception="UnsupportedOption",
                       exception_message=f"{message}; nothing was sent", unsupported_options=lacking)
