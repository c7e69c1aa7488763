"""Describe topics: DescribeTopicPartitions (KIP-966) where the client and broker have it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeTopicsArgs:
    names: Sequence[str] = ()
    """With none, every topic the principal may Describe: the API's listing mode, for a client that has it
    (``ClientKind.lists_by_describe``)."""


DESCRIBE_TOPICS = Operation(
    "describe_topics", DescribeTopicsArgs, "DescribeTopicPartitions",
    "one result per topic with its partition count and, for named topics, `partition_info` (each partition's "
    "leader, replicas, isr) and `topic_id` (null: none); ``request_version`` is DescribeTopicPartitions', None "
    "where the client described them otherwise",
    lambda topic: (DescribeTopicsArgs([topic]),), java_class="DescribeTopics")
