"""Alter a group's committed offsets through the wire client: OffsetCommit at its coordinator as no member
(generation -1, no member id), as kafka-clients' alterConsumerGroupOffsets sends it (KIP-396)."""

from __future__ import annotations

from typing import Any

from . import ALTER_CONSUMER_GROUP_OFFSETS, AlterConsumerGroupOffsetsArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ...clients.kinds.wire.groups import OFFSET_COMMIT, commit_request, partition_outcomes, send_to_coordinator


@ALTER_CONSUMER_GROUP_OFFSETS.implement(WireClient)
def alter_consumer_group_offsets(client: WireClient, args: AlterConsumerGroupOffsetsArgs,
                                 version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        return commit_request(v, args.group, args.offsets)

    answer = send_to_coordinator(client, "alter_consumer_group_offsets", OFFSET_COMMIT, args.group, version, build)
    if isinstance(answer, AdminResult):
        return answer
    sent, response = answer
    return AdminResult("alter_consumer_group_offsets", client.kind, client.version, sent,
                       tuple(partition_outcomes(response.topics)))
