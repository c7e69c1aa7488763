"""Alter share group offsets through the wire client: AlterShareGroupOffsets (KIP-932) at the group's
coordinator; one result per partition."""

from __future__ import annotations

from typing import Any

from . import ALTER_SHARE_GROUP_OFFSETS, AlterShareGroupOffsetsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient
from ...clients.kinds.wire.groups import request, send_to_coordinator

API_KEY = 91


@ALTER_SHARE_GROUP_OFFSETS.implement(WireClient)
def alter_share_group_offsets(client: WireClient, args: AlterShareGroupOffsetsArgs, version: int | None) -> AdminResult:
    grouped: dict[str, list[dict[str, int]]] = {}
    for topic, partition, offset in args.offsets:
        grouped.setdefault(topic, []).append({"partition_index": partition, "start_offset": offset})

    def build(v: int, options: dict[str, bool]) -> Any:
        return request(API_KEY, v, group_id=args.group,
                       topics=[{"topic_name": t, "partitions": p} for t, p in grouped.items()])

    answer = send_to_coordinator(client, ALTER_SHARE_GROUP_OFFSETS.name, API_KEY, args.group, version, build)
    if isinstance(answer, AdminResult):
        return answer
    sent, response = answer
    if int(response.error_code) != 0:
        outcomes = [ResourceOutcome.of(args.group, int(response.error_code), response.error_message)]
    else:
        outcomes = [ResourceOutcome.of(f"{t.topic_name}:{int(p.partition_index)}", int(p.error_code),
                                       p.error_message) for t in response.responses for p in t.partitions]
    return AdminResult(ALTER_SHARE_GROUP_OFFSETS.name, client.kind, client.version, sent, tuple(outcomes))
