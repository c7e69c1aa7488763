"""Describe share groups through the wire client: ShareGroupDescribe at each group's coordinator (v1 from
brokers 4.1; v0, the early access of brokers 4.0, was never stable in a release, so it is not spoken)."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_SHARE_GROUPS, DescribeShareGroupsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient
from ...clients.kinds.wire.groups import coordinator, request, send_to_coordinator
from ..describe_consumer_groups.wire import operations_of

SHARE_GROUP_DESCRIBE = 77


@DESCRIBE_SHARE_GROUPS.implement(WireClient)
def describe_share_groups(client: WireClient, args: DescribeShareGroupsArgs, version: int | None) -> AdminResult:
    outcomes: list[ResourceOutcome] = []
    sent: int | None = None
    fields_seen: tuple[str, ...] = ()
    for group in args.groups:
        def build(v: int, options: dict[str, bool], group: str = group) -> Any:
            return request(SHARE_GROUP_DESCRIBE, v, group_ids=(group,),
                           include_authorized_operations=args.include_authorized_operations)

        answer = send_to_coordinator(client, "describe_share_groups", SHARE_GROUP_DESCRIBE, group, version, build)
        if isinstance(answer, AdminResult):
            if answer.exception:
                return answer
            outcomes.extend(answer.resources)
            continue
        sent, response = answer
        node = coordinator(client, group).node_id
        for described in response.groups:
            fields: dict[str, Any] = {
                "state": str(described.group_state), "coordinator": node,
                "partition_assignor": str(described.assignor_name),
                "members": [{"member_id": str(m.member_id), "client_id": str(m.client_id),
                             "host": str(m.client_host), "group_instance_id": None,
                             "assignment": [f"{t.topic_name}:{int(p)}" for t in m.assignment.topic_partitions
                                            for p in t.partitions]} for m in described.members],
                "authorized_operations": operations_of(int(described.authorized_operations))}
            fields_seen = tuple(fields)
            outcomes.append(ResourceOutcome.of(str(described.group_id), int(described.error_code),
                                               described.error_message, **fields))
    return AdminResult("describe_share_groups", client.kind, client.version, sent, tuple(outcomes), fields_seen)
