"""Delete a consumer group's committed offsets of some partitions (KIP-496: OffsetDelete, broker 2.4+)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DeleteConsumerGroupOffsetsArgs:
    group: str
    partitions: Sequence[tuple[str, int]]


DELETE_CONSUMER_GROUP_OFFSETS = Operation(
    "delete_consumer_group_offsets", DeleteConsumerGroupOffsetsArgs, "OffsetDelete",
    "one result per partition (``topic:partition``): its error; an error of the group as a whole is a result "
    "named by the group (or the exception)",
    lambda topic: (DeleteConsumerGroupOffsetsArgs(f"{topic}-group", [(topic, 0)]),),
    java_class="DeleteConsumerGroupOffsets")
