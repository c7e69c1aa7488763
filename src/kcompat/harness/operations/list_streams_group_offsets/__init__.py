"""List a streams group's committed offsets (KIP-1071's Admin.listStreamsGroupOffsets, kafka-clients 4.1+):
kafka-clients sends the OffsetFetch of listConsumerGroupOffsets, as its javadoc's note says."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class ListStreamsGroupOffsetsArgs:
    group: str
    partitions: Sequence[tuple[str, int]] | None = None
    """(topic, partition) pairs; None: every partition the group has committed offsets for."""


LIST_STREAMS_GROUP_OFFSETS = Operation(
    "list_streams_group_offsets", ListStreamsGroupOffsetsArgs, "OffsetFetch",
    "one result per partition (``topic:partition``) with its committed ``offset`` (null: none) and "
    "``metadata``; an error of the group as a whole is a result named by the group (or the exception)",
    lambda topic: (ListStreamsGroupOffsetsArgs(f"{topic}-group"),), java_class="ListStreamsGroupOffsets")
