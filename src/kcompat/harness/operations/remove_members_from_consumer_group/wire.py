"""Remove static members through the wire client: LeaveGroup v3+ (KIP-345) naming their group instance ids at
the group's coordinator; a version without the members list can't say which, so nothing is sent there."""

from __future__ import annotations

from typing import Any

from . import (
    REMOVE_MEMBERS_FROM_CONSUMER_GROUP,
    RemoveMembersFromConsumerGroupArgs,
)
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient
from ...clients.kinds.wire.groups import LEAVE_GROUP, items, request, send_to_coordinator
from ...protocol import request_type


@REMOVE_MEMBERS_FROM_CONSUMER_GROUP.implement(WireClient)
def remove_members_from_consumer_group(client: WireClient, args: RemoveMembersFromConsumerGroupArgs,
                                       version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        schema = request_type(LEAVE_GROUP, v)
        return request(LEAVE_GROUP, v, group_id=args.group, members=items(schema, "members", [
            {"member_id": "", "group_instance_id": i} for i in args.instance_ids]))

    answer = send_to_coordinator(client, "remove_members_from_consumer_group", LEAVE_GROUP, args.group, version,
                                 build, {"members": True})
    if isinstance(answer, AdminResult):
        return answer
    sent, response = answer
    outcomes: list[ResourceOutcome] = []
    if int(response.error_code) != 0:
        outcomes.append(ResourceOutcome.of(args.group, int(response.error_code)))
    outcomes.extend(ResourceOutcome.of(str(m.group_instance_id), int(m.error_code), None, member_id=str(m.member_id))
                    for m in response.members)
    return AdminResult("remove_members_from_consumer_group", client.kind, client.version, sent, tuple(outcomes))
