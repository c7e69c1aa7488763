"""Alter a consumer group's committed offsets (KIP-396: OffsetCommit at its coordinator, as no member)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class AlterConsumerGroupOffsetsArgs:
    group: str
    offsets: Sequence[tuple[str, int, int]]
    """(topic, partition, offset) triples."""


ALTER_CONSUMER_GROUP_OFFSETS = Operation(
    "alter_consumer_group_offsets", AlterConsumerGroupOffsetsArgs, "OffsetCommit",
    "one result per partition (``topic:partition``): its error; an error of the group as a whole is a result "
    "named by the group (or the exception)",
    lambda topic: (AlterConsumerGroupOffsetsArgs(f"{topic}-group", [(topic, 0, 0)]),),
    java_class="AlterConsumerGroupOffsets")
