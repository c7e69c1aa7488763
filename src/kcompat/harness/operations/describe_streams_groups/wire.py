"""Describe streams groups through the wire client: StreamsGroupDescribe (KIP-1071) at each group's
coordinator, with its topology's subtopologies (their source topics) and each member's active tasks."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_STREAMS_GROUPS, DescribeStreamsGroupsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient
from ...clients.kinds.wire.groups import coordinator, request, send_to_coordinator
from ..describe_consumer_groups.wire import operations_of

STREAMS_GROUP_DESCRIBE = 89


@DESCRIBE_STREAMS_GROUPS.implement(WireClient)
def describe_streams_groups(client: WireClient, args: DescribeStreamsGroupsArgs, version: int | None) -> AdminResult:
    outcomes: list[ResourceOutcome] = []
    sent: int | None = None
    for group in args.groups:
        def build(v: int, options: dict[str, bool], group: str = group) -> Any:
            return request(STREAMS_GROUP_DESCRIBE, v, group_ids=(group,),
                           include_authorized_operations=args.include_authorized_operations,
                           include_topology_description=True)

        answer = send_to_coordinator(client, DESCRIBE_STREAMS_GROUPS.name, STREAMS_GROUP_DESCRIBE, group, version,
                                     build)
        if isinstance(answer, AdminResult):
            if answer.exception:
                return answer
            outcomes.extend(answer.resources)
            continue
        sent, response = answer
        node = coordinator(client, group).node_id
        outcomes.extend(_described(g, node) for g in response.groups)
    fields = tuple(outcomes[0].fields) if outcomes and outcomes[0].fields else ()
    return AdminResult(DESCRIBE_STREAMS_GROUPS.name, client.kind, client.version, sent, tuple(outcomes), fields)


def _described(group: Any, node: int | None) -> ResourceOutcome:
    members = [{"member_id": str(m.member_id), "client_id": str(m.client_id), "host": str(m.client_host),
                "assignment": [f"{t.subtopology_id}:{int(p)}" for t in m.assignment.active_tasks
                               for p in t.partitions]} for m in group.members]
    topology = getattr(group, "topology", None)
    subtopologies = None if topology is None else [
        {"subtopology_id": str(s.subtopology_id), "source_topics": list(s.source_topics)}
        for s in topology.subtopologies]
    return ResourceOutcome.of(str(group.group_id), int(group.error_code), group.error_message,
                              state=str(group.group_state), members=members, coordinator=node,
                              subtopologies=subtopologies,
                              authorized_operations=operations_of(int(group.authorized_operations)))
