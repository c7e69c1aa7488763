"""AlterPartitionReassignments through the wire client, to the controller (KIP-455)."""

from __future__ import annotations

from typing import Any


from . import (
    ALTER_PARTITION_REASSIGNMENTS,
    AlterPartitionReassignmentsArgs,
    Reassignment,
)
from ..elect_leaders import TopicPartition
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

API_KEY = 45
TIMEOUT = 30_000
"""Milliseconds the broker may take."""


@ALTER_PARTITION_REASSIGNMENTS.implement(WireClient)
@observed
def alter_partition_reassignments(client: WireClient, args: AlterPartitionReassignmentsArgs, version: int | None
                                  ) -> AdminResult:
    """A request-level error is every partition's, as kafka-clients reports it."""
    sent, response, _ = client.send("alter_partition_reassignments", API_KEY, version,
                                     lambda v, options: _request(v, args.reassignments), {}, to_controller=True)
    whole = int(response.error_code)
    if whole:
        return AdminResult("alter_partition_reassignments", client.kind, client.version, sent,
                           tuple(ResourceOutcome.of(r.partition.label, whole, response.error_message)
                                 for r in args.reassignments))
    outcomes = tuple(ResourceOutcome.of(TopicPartition(str(t.name), int(p.partition_index)).label,
                                        int(p.error_code), p.error_message)
                     for t in response.responses for p in t.partitions)
    return AdminResult("alter_partition_reassignments", client.kind, client.version, sent, outcomes)


def _request(version: int, reassignments: Any) -> Any:
    topic, partition = (nested_type(API_KEY, version, name, topics=(), timeout=TIMEOUT)
                        for name in ("ReassignableTopic", "ReassignablePartition"))
    by_topic: dict[str, list[Reassignment]] = {}
    for item in reassignments:
        by_topic.setdefault(item.partition.topic, []).append(item)
    return build_request(API_KEY, version, timeout=TIMEOUT, topics=tuple(
        topic(name=name, partitions=tuple(
            partition(partition_index=r.partition.partition,
                      replicas=None if r.replicas is None else tuple(r.replicas)) for r in items))
        for name, items in sorted(by_topic.items())))
