"""Delete share group offsets through the wire client: DeleteShareGroupOffsets (KIP-932) at the group's
coordinator; one result per topic."""

from __future__ import annotations

from typing import Any

from . import DELETE_SHARE_GROUP_OFFSETS, DeleteShareGroupOffsetsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient
from ...clients.kinds.wire.groups import request, send_to_coordinator

API_KEY = 92


@DELETE_SHARE_GROUP_OFFSETS.implement(WireClient)
def delete_share_group_offsets(client: WireClient, args: DeleteShareGroupOffsetsArgs,
                               version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        return request(API_KEY, v, group_id=args.group, topics=[{"topic_name": t} for t in args.topics])

    answer = send_to_coordinator(client, DELETE_SHARE_GROUP_OFFSETS.name, API_KEY, args.group, version, build)
    if isinstance(answer, AdminResult):
        return answer
    sent, response = answer
    if int(response.error_code) != 0:
        outcomes = [ResourceOutcome.of(args.group, int(response.error_code), response.error_message)]
    else:
        outcomes = [ResourceOutcome.of(str(t.topic_name), int(t.error_code), t.error_message)
                    for t in response.responses]
    return AdminResult(DELETE_SHARE_GROUP_OFFSETS.name, client.kind, client.version, sent, tuple(outcomes))
