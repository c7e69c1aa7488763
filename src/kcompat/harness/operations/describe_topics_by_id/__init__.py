"""Describe topics by topic id (KIP-516): Metadata v12+ looks topics up by id (brokers 3.1+)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeTopicsByIdArgs:
    topic_ids: Sequence[str]
    """Topic ids as a UUID's usual text; each result is named by its id."""


DESCRIBE_TOPICS_BY_ID = Operation(
    "describe_topics_by_id", DescribeTopicsByIdArgs, "Metadata",
    "one result per topic id: its error, ``name`` and ``partitions`` (count)",
    lambda topic: (DescribeTopicsByIdArgs([str(uuid.uuid5(uuid.NAMESPACE_URL, topic))]),),
    java_class="DescribeTopicsById")
