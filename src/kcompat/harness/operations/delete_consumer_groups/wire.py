"""Delete consumer groups through the wire client: DeleteGroups at each group's coordinator."""

from __future__ import annotations

from typing import Any

from . import DELETE_CONSUMER_GROUPS, DeleteConsumerGroupsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient
from ...clients.kinds.wire.groups import DELETE_GROUPS, request, send_to_coordinator


@DELETE_CONSUMER_GROUPS.implement(WireClient)
def delete_consumer_groups(client: WireClient, args: DeleteConsumerGroupsArgs, version: int | None) -> AdminResult:
    outcomes: list[ResourceOutcome] = []
    sent: int | None = None
    for group in args.groups:
        def build(v: int, options: dict[str, bool], group: str = group) -> Any:
            return request(DELETE_GROUPS, v, groups_names=(group,))

        answer = send_to_coordinator(client, "delete_consumer_groups", DELETE_GROUPS, group, version, build)
        if isinstance(answer, AdminResult):
            if answer.exception:
                return answer
            outcomes.extend(answer.resources)
            continue
        sent, response = answer
        outcomes.extend(ResourceOutcome.of(str(r.group_id), int(r.error_code)) for r in response.results)
    return AdminResult("delete_consumer_groups", client.kind, client.version, sent, tuple(outcomes))
