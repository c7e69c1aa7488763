"""Alter a streams group's committed offsets (KIP-1071's Admin.alterStreamsGroupOffsets, kafka-clients 4.1+):
the OffsetCommit, as no member, of alterConsumerGroupOffsets, as its javadoc's note says."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class AlterStreamsGroupOffsetsArgs:
    group: str
    offsets: Sequence[tuple[str, int, int]]
    """(topic, partition, offset) triples."""


ALTER_STREAMS_GROUP_OFFSETS = Operation(
    "alter_streams_group_offsets", AlterStreamsGroupOffsetsArgs, "OffsetCommit",
    "one result per partition (``topic:partition``): its error; an error of the group as a whole is a result "
    "named by the group (or the exception)",
    lambda topic: (AlterStreamsGroupOffsetsArgs(f"{topic}-group", [(topic, 0, 0)]),),
    java_class="AlterStreamsGroupOffsets")
