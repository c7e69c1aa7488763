"""A group's committed offsets through the wire client: OffsetFetch at its coordinator (v8+ batches groups,
so the one group is the batch's only entry); null topics ask for every partition the group committed."""

from __future__ import annotations

from typing import Any

from . import LIST_CONSUMER_GROUP_OFFSETS, ListConsumerGroupOffsetsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient
from ...clients.kinds.wire.groups import OFFSET_FETCH, by_topic, element, has, items, partition_outcomes, request, send_to_coordinator
from ...protocol import request_type


@LIST_CONSUMER_GROUP_OFFSETS.implement(WireClient)
def list_consumer_group_offsets(client: WireClient, args: ListConsumerGroupOffsetsArgs,
                                version: int | None) -> AdminResult:
    wanted = None if args.partitions is None else by_topic(args.partitions)

    def build(v: int, options: dict[str, bool]) -> Any:
        schema = request_type(OFFSET_FETCH, v)
        if has(schema, "groups"):
            group_type = element(schema, "groups")
            topics = None if wanted is None else items(group_type, "topics", [
                {"name": t, "partition_indexes": tuple(p)} for t, p in wanted.items()])
            return request(OFFSET_FETCH, v, groups=items(schema, "groups", [{"group_id": args.group,
                                                                             "topics": topics}]))
        topics = None if wanted is None else items(schema, "topics", [
            {"name": t, "partition_indexes": tuple(p)} for t, p in wanted.items()])
        return request(OFFSET_FETCH, v, group_id=args.group, topics=topics)

    answer = send_to_coordinator(client, "list_consumer_group_offsets", OFFSET_FETCH, args.group, version, build)
    if isinstance(answer, AdminResult):
        return answer
    sent, response = answer
    answered = response.groups[0] if has(response, "groups") else response
    outcomes: list[ResourceOutcome] = []
    if has(answered, "error_code") and int(answered.error_code) != 0:
        outcomes.append(ResourceOutcome.of(args.group, int(answered.error_code)))
    for outcome in partition_outcomes(answered.topics, offset="committed_offset", metadata="metadata"):
        offset = outcome.fields.get("offset")
        fields = {**outcome.fields, "offset": None if offset is None or int(offset) < 0 else int(offset)}
        outcomes.append(ResourceOutcome.of(outcome.resource, outcome.error_code, outcome.error_message, **fields))
    return AdminResult("list_consumer_group_offsets", client.kind, client.version, sent, tuple(outcomes),
                       ("offset", "metadata"))
