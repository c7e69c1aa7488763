"""Describe consumer groups through the wire client: DescribeGroups at each group's coordinator."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_CONSUMER_GROUPS, DescribeConsumerGroupsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient
from ...clients.kinds.wire.groups import DESCRIBE_GROUPS, coordinator, has, request, send_to_coordinator

AUTHORIZED_UNKNOWN = -2147483648
"""What a broker answers in ``authorized_operations`` when it was not asked (Kafka's INT32_MIN)."""
ACL_OPERATION_NAMES = {2: "ALL", 3: "READ", 4: "WRITE", 5: "CREATE", 6: "DELETE", 7: "ALTER", 8: "DESCRIBE",
                       9: "CLUSTER_ACTION", 10: "DESCRIBE_CONFIGS", 11: "ALTER_CONFIGS", 12: "IDEMPOTENT_WRITE",
                       13: "CREATE_TOKENS", 14: "DESCRIBE_TOKENS", 15: "TWO_PHASE_COMMIT"}


def operations_of(bits: int) -> list[str] | None:
    """KIP-430's bit field as operation names (bit n is the AclOperation of code n); None when not given."""
    if bits == AUTHORIZED_UNKNOWN:
        return None
    return [name for code, name in sorted(ACL_OPERATION_NAMES.items()) if bits & (1 << code)]


@DESCRIBE_CONSUMER_GROUPS.implement(WireClient)
def describe_consumer_groups(client: WireClient, args: DescribeConsumerGroupsArgs,
                             version: int | None) -> AdminResult:
    outcomes: list[ResourceOutcome] = []
    sent: int | None = None
    fields_seen: tuple[str, ...] = ()
    asked = args.include_authorized_operations
    for group in args.groups:

        def build(v: int, options: dict[str, bool], group: str = group) -> Any:
            return request(DESCRIBE_GROUPS, v, groups=(group,),
                           include_authorized_operations=options.get("include_authorized_operations", False))

        # a version without the option (before v3) can't say what was asked: nothing is sent, and the record says so
        answer = send_to_coordinator(client, "describe_consumer_groups", DESCRIBE_GROUPS, group, version, build,
                                     {"include_authorized_operations": asked})
        if isinstance(answer, AdminResult):
            if answer.exception:
                return answer
            outcomes.extend(answer.resources)
            continue
        sent, response = answer
        node = coordinator(client, group).node_id
        for described in response.groups:
            fields: dict[str, Any] = {
                "state": str(described.group_state), "protocol_type": str(described.protocol_type),
                "partition_assignor": str(described.protocol_data), "coordinator": node,
                "members": [{"member_id": str(m.member_id), "client_id": str(m.client_id),
                             "host": str(m.client_host),
                             "group_instance_id": (None if getattr(m, "group_instance_id", None) is None
                                                   else str(m.group_instance_id))}
                            for m in described.members]}
            if has(described, "authorized_operations"):
                fields["authorized_operations"] = operations_of(int(described.authorized_operations))
            fields_seen = tuple(fields)
            outcomes.append(ResourceOutcome.of(str(described.group_id), int(described.error_code),
                                               getattr(described, "error_message", None), **fields))
    return AdminResult("describe_consumer_groups", client.kind, client.version, sent, tuple(outcomes), fields_seen)

