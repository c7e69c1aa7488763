"""Describe topics through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

from ....operations.describe_topics import DESCRIBE_TOPICS, DescribeTopicsArgs
from ...base import AdminResult
from ...wire import WireClient


@DESCRIBE_TOPICS.implement(WireClient)
def describe_topics(client: WireClient, args: DescribeTopicsArgs, version: int | None) -> AdminResult:
    return client.describe_topics(args.names, version=version)
