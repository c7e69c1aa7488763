"""Describe topics by id through confluent-kafka: its TopicCollection holds names only, so nothing is sent."""

from __future__ import annotations

from . import DESCRIBE_TOPICS_BY_ID, DescribeTopicsByIdArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@DESCRIBE_TOPICS_BY_ID.implement(ConfluentClient)
def describe_topics_by_id(client: ConfluentClient, args: DescribeTopicsByIdArgs, version: int | None) -> AdminResult:
    return AdminResult("describe_topics_by_id", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.describe_topics by "
                                         "topic id", librdkafka_version=client.librdkafka_version)
