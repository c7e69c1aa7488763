"""Describe topics through the wire client (DescribeTopicPartitions, KIP-966), at the cell's pinned request
version where it has one.  Named topics are described here with each partition's leader, replicas and ISR and
the topic id (what Admin.describeTopics' TopicDescription carries), in one response of up to 2000 partitions
(a probe's topics have a few); with no names, the client's listing mode, which follows the cursor."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_TOPICS, DescribeTopicsArgs
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import DESCRIBE_TOPIC_PARTITIONS, WireClient, observed

FIELDS = ("partitions", "internal", "topic_id", "partition_info")
_NO_TOPIC_ID = "00000000-0000-0000-0000-000000000000"


def partition_info(partitions: Any) -> list[dict[str, Any]]:
    """Each partition's index, leader, replicas and ISR, by index: the fields every client's description has."""
    return [{"partition": int(p.partition_index), "leader": int(p.leader_id),
             "replicas": [int(r) for r in p.replica_nodes], "isr": [int(r) for r in p.isr_nodes]}
            for p in sorted(partitions, key=lambda p: int(p.partition_index))]


@DESCRIBE_TOPICS.implement(WireClient)
@observed
def describe_topics(client: WireClient, args: DescribeTopicsArgs, version: int | None) -> AdminResult:
    if not args.names:
        return _listing(client, version)

    def build(v: int, options: dict[str, bool]) -> Any:
        topic = nested_type(DESCRIBE_TOPIC_PARTITIONS, v, "TopicRequest", topics=())
        return build_request(DESCRIBE_TOPIC_PARTITIONS, v, topics=tuple(topic(name=n) for n in args.names),
                             response_partition_limit=2000, cursor=None)

    sent, response, _ = client.send("describe_topics", DESCRIBE_TOPIC_PARTITIONS, version, build, {})
    outcomes = []
    for t in response.topics:
        topic_id = str(t.topic_id)
        outcomes.append(ResourceOutcome.of(
            str(t.name), int(t.error_code), None, partitions=len(t.partitions), internal=bool(t.is_internal),
            topic_id=None if topic_id == _NO_TOPIC_ID else topic_id, partition_info=partition_info(t.partitions)))
    return AdminResult("describe_topics", client.kind, client.version, sent, tuple(outcomes), FIELDS)


def _listing(client: WireClient, version: int | None) -> AdminResult:
    """Every topic the principal may Describe (the API's listing mode: no names), following the cursor."""
    outcomes: list[ResourceOutcome] = []
    cursor: Any = None
    while True:
        def build(v: int, options: dict[str, bool], after: Any = cursor) -> Any:
            start = None if after is None else nested_type(DESCRIBE_TOPIC_PARTITIONS, v, "Cursor", topics=())(
                topic_name=after.topic_name, partition_index=after.partition_index)
            return build_request(DESCRIBE_TOPIC_PARTITIONS, v, topics=(), response_partition_limit=2000,
                                 cursor=start)

        sent, response, _ = client.send("describe_topics", DESCRIBE_TOPIC_PARTITIONS, version, build, {})
        outcomes += [ResourceOutcome.of(str(t.name), int(t.error_code), None, partitions=len(t.partitions),
                                        internal=bool(t.is_internal)) for t in response.topics]
        if response.next_cursor is None:
            break
        cursor = response.next_cursor
    return AdminResult("describe_topics", client.kind, client.version, sent, tuple(outcomes),
                       ("partitions", "internal"))
