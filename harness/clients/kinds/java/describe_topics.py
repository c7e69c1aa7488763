"""Describe topics through the Java AdminClient in its sidecar (``ops/DescribeTopics.java``)."""

from __future__ import annotations

from ....operations.describe_topics import DESCRIBE_TOPICS, DescribeTopicsArgs
from ...base import AdminResult
from ...java import JavaClient


@DESCRIBE_TOPICS.implement(JavaClient)
def describe_topics(client: JavaClient, args: DescribeTopicsArgs, version: int | None) -> AdminResult:
    return client.describe_topics(args.names)
