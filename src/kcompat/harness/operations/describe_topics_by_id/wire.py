"""Describe topics by id through the wire client: Metadata v12+ with topic ids and no names."""

from __future__ import annotations

import uuid
from typing import Any

from . import DESCRIBE_TOPICS_BY_ID, DescribeTopicsByIdArgs
from ...protocol import METADATA, build_request, nested_type, pick_version
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed
from ...clients.kinds.wire.shared import nothing_sent

BY_ID_SINCE = 12
"""The first Metadata version a broker answers by topic id (v10 carried the field, unused until v12)."""
_EMPTY = {"topics": (), "allow_auto_topic_creation": False, "include_topic_authorized_operations": False}


@DESCRIBE_TOPICS_BY_ID.implement(WireClient)
@observed
def describe_topics_by_id(client: WireClient, args: DescribeTopicsByIdArgs, version: int | None) -> AdminResult:
    offered = client.api_versions()
    chosen = version if version is not None else pick_version(METADATA, offered)
    if chosen < BY_ID_SINCE:
        return nothing_sent(client, "describe_topics_by_id", f"Metadata v{chosen} can't name topics by id",
                            ("topic_ids",))

    def build(v: int, options: dict[str, bool]) -> Any:
        topic = nested_type(METADATA, v, "MetadataRequestTopic", **_EMPTY)
        return build_request(METADATA, v, allow_auto_topic_creation=False, include_topic_authorized_operations=False,
                             topics=tuple(topic(topic_id=uuid.UUID(i), name=None) for i in args.topic_ids))

    sent, response, _ = client.send("describe_topics_by_id", METADATA, chosen, build, {})
    return AdminResult("describe_topics_by_id", client.kind, client.version, sent, tuple(
        ResourceOutcome.of(str(t.topic_id), int(t.error_code), None, name=t.name, partitions=len(t.partitions))
        for t in response.topics), ("name", "partitions"))
