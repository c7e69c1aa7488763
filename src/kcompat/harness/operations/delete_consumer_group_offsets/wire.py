"""Delete a group's committed offsets through the wire client: OffsetDelete (KIP-496) at its coordinator."""

from __future__ import annotations

from typing import Any

from . import (
    DELETE_CONSUMER_GROUP_OFFSETS,
    DeleteConsumerGroupOffsetsArgs,
)
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient
from ...clients.kinds.wire.groups import OFFSET_DELETE, by_topic, element, items, partition_outcomes, request, send_to_coordinator
from ...protocol import request_type


@DELETE_CONSUMER_GROUP_OFFSETS.implement(WireClient)
def delete_consumer_group_offsets(client: WireClient, args: DeleteConsumerGroupOffsetsArgs,
                                  version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        schema = request_type(OFFSET_DELETE, v)
        topic_type = element(schema, "topics")
        return request(OFFSET_DELETE, v, group_id=args.group, topics=items(schema, "topics", [
            {"name": t, "partitions": items(topic_type, "partitions", [{"partition_index": p} for p in ps])}
            for t, ps in by_topic(args.partitions).items()]))

    answer = send_to_coordinator(client, "delete_consumer_group_offsets", OFFSET_DELETE, args.group, version,
                                 build)
    if isinstance(answer, AdminResult):
        return answer
    sent, response = answer
    outcomes: list[ResourceOutcome] = []
    if int(response.error_code) != 0:
        outcomes.append(ResourceOutcome.of(args.group, int(response.error_code)))
    outcomes.extend(partition_outcomes(response.topics))
    return AdminResult("delete_consumer_group_offsets", client.kind, client.version, sent, tuple(outcomes))
