"""List share group offsets through the wire client: DescribeShareGroupOffsets (KIP-932) at the group's
coordinator, one group in the batch; null topics ask for every partition the group has a start offset for."""

from __future__ import annotations

from typing import Any

from . import LIST_SHARE_GROUP_OFFSETS, ListShareGroupOffsetsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient
from ...clients.kinds.wire.groups import by_topic, send_to_coordinator, request

DESCRIBE_SHARE_GROUP_OFFSETS = 90
NO_OFFSET = -1
"""The start offset of a partition the group has none for."""


@LIST_SHARE_GROUP_OFFSETS.implement(WireClient)
def list_share_group_offsets(client: WireClient, args: ListShareGroupOffsetsArgs, version: int | None) -> AdminResult:
    wanted = None if args.partitions is None else by_topic(args.partitions)

    def build(v: int, options: dict[str, bool]) -> Any:
        topics = None if wanted is None else [{"topic_name": t, "partitions": p} for t, p in wanted.items()]
        return request(DESCRIBE_SHARE_GROUP_OFFSETS, v, groups=[{"group_id": args.group, "topics": topics}])

    answer = send_to_coordinator(client, LIST_SHARE_GROUP_OFFSETS.name, DESCRIBE_SHARE_GROUP_OFFSETS, args.group,
                                 version, build)
    if isinstance(answer, AdminResult):
        return answer
    sent, response = answer
    group = next(iter(response.groups), None)
    if group is None:  # an answer naming no group (a stub's blank one): nothing listed
        outcomes: list[ResourceOutcome] = []
    elif int(group.error_code) != 0:
        outcomes = [ResourceOutcome.of(args.group, int(group.error_code), group.error_message)]
    else:
        outcomes = [ResourceOutcome.of(f"{t.topic_name}:{int(p.partition_index)}", int(p.error_code),
                                       p.error_message, offset=None if p.start_offset == NO_OFFSET else
                                       int(p.start_offset)) for t in group.topics for p in t.partitions]
    return AdminResult(LIST_SHARE_GROUP_OFFSETS.name, client.kind, client.version, sent, tuple(outcomes),
                       ("offset",))
