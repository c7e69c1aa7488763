"""ListPartitionReassignments through the wire client, to the controller (KIP-455)."""

from __future__ import annotations

from typing import Any


from ..elect_leaders import TopicPartition
from . import (
    LIST_PARTITION_REASSIGNMENTS,
    ListPartitionReassignmentsArgs,
)
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

API_KEY = 46
TIMEOUT = 30_000
"""Milliseconds the broker may take."""
FIELDS = ("replicas", "adding_replicas", "removing_replicas")


@LIST_PARTITION_REASSIGNMENTS.implement(WireClient)
@observed
def list_partition_reassignments(client: WireClient, args: ListPartitionReassignmentsArgs, version: int | None
                                 ) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        if args.partitions is None:
            return build_request(API_KEY, v, timeout=TIMEOUT, topics=None)
        entity = nested_type(API_KEY, v, "ListPartitionReassignmentsTopics", topics=None, timeout=TIMEOUT)
        topics: dict[str, list[int]] = {}
        for tp in args.partitions:
            topics.setdefault(tp.topic, []).append(tp.partition)
        return build_request(API_KEY, v, timeout=TIMEOUT, topics=tuple(
            entity(name=name, partition_indexes=tuple(parts)) for name, parts in sorted(topics.items())))

    sent, response, _ = client.send("list_partition_reassignments", API_KEY, version, build, {},
                                     to_controller=True)
    whole = int(response.error_code)
    if whole:
        return AdminResult("list_partition_reassignments", client.kind, client.version, sent,
                           (ResourceOutcome.of("*", whole, response.error_message),), FIELDS)
    outcomes = tuple(ResourceOutcome.of(
        TopicPartition(str(t.name), int(p.partition_index)).label, 0, None,
        replicas=[int(r) for r in p.replicas], adding_replicas=[int(r) for r in p.adding_replicas],
        removing_replicas=[int(r) for r in p.removing_replicas]) for t in response.topics for p in t.partitions)
    return AdminResult("list_partition_reassignments", client.kind, client.version, sent, outcomes, FIELDS)
