"""Delete a streams group's committed offsets of some partitions (KIP-1071's Admin.deleteStreamsGroupOffsets,
kafka-clients 4.1+): the OffsetDelete of deleteConsumerGroupOffsets, as its javadoc's note says."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DeleteStreamsGroupOffsetsArgs:
    group: str
    partitions: Sequence[tuple[str, int]]


DELETE_STREAMS_GROUP_OFFSETS = Operation(
    "delete_streams_group_offsets", DeleteStreamsGroupOffsetsArgs, "OffsetDelete",
    "one result per partition (``topic:partition``): its error; an error of the group as a whole is a result "
    "named by the group (or the exception)",
    lambda topic: (DeleteStreamsGroupOffsetsArgs(f"{topic}-group", [(topic, 0)]),),
    java_class="DeleteStreamsGroupOffsets")
