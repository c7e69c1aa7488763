"""Describe consumer-protocol groups through the wire client: ConsumerGroupDescribe at each group's coordinator,
and nothing else (no DescribeGroups after GROUP_ID_NOT_FOUND, as the libraries send)."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_CONSUMER_PROTOCOL_GROUPS, DescribeConsumerProtocolGroupsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient
from ...clients.kinds.wire.groups import coordinator, request, send_to_coordinator
from ..describe_consumer_groups.wire import operations_of

CONSUMER_GROUP_DESCRIBE = 69


@DESCRIBE_CONSUMER_PROTOCOL_GROUPS.implement(WireClient)
def describe_consumer_protocol_groups(client: WireClient, args: DescribeConsumerProtocolGroupsArgs,
                                      version: int | None) -> AdminResult:
    outcomes: list[ResourceOutcome] = []
    sent: int | None = None
    for group in args.groups:

        def build(v: int, options: dict[str, bool], group: str = group) -> Any:
            return request(CONSUMER_GROUP_DESCRIBE, v, group_ids=(group,),
                           include_authorized_operations=options.get("include_authorized_operations", False))

        answer = send_to_coordinator(client, DESCRIBE_CONSUMER_PROTOCOL_GROUPS.name, CONSUMER_GROUP_DESCRIBE, group,
                                     version, build,
                                     {"include_authorized_operations": args.include_authorized_operations})
        if isinstance(answer, AdminResult):
            if answer.exception:
                return answer
            outcomes.extend(answer.resources)
            continue
        sent, response = answer
        node = coordinator(client, group).node_id
        outcomes.extend(described(g, node) for g in response.groups)
    fields = tuple(outcomes[0].fields) if outcomes and outcomes[0].fields else ()
    return AdminResult(DESCRIBE_CONSUMER_PROTOCOL_GROUPS.name, client.kind, client.version, sent, tuple(outcomes),
                       fields)


def described(group: Any, node: int | None) -> ResourceOutcome:
    """One group of the response as its outcome: the fields the other clients' descriptions carry too."""
    members = [{"member_id": str(m.member_id), "client_id": str(m.client_id), "host": str(m.client_host),
                "group_instance_id": None if m.instance_id is None else str(m.instance_id)} for m in group.members]
    return ResourceOutcome.of(str(group.group_id), int(group.error_code), group.error_message,
                              state=str(group.group_state), type="consumer", members=members, coordinator=node,
                              partition_assignor=str(group.assignor_name),
                              authorized_operations=operations_of(int(group.authorized_operations)))
