"""Describe topics through confluent-kafka's AdminClient."""

from __future__ import annotations

from ....operations.describe_topics import DESCRIBE_TOPICS, DescribeTopicsArgs
from ...base import AdminResult
from ...confluent import ConfluentClient


@DESCRIBE_TOPICS.implement(ConfluentClient)
def describe_topics(client: ConfluentClient, args: DescribeTopicsArgs, version: int | None) -> AdminResult:
    return client.describe_topics(args.names)
