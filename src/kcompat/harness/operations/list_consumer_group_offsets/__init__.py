"""A consumer group's committed offsets (OffsetFetch at its coordinator)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class ListConsumerGroupOffsetsArgs:
    group: str
    partitions: Sequence[tuple[str, int]] | None = None
    """(topic, partition) pairs; None: every partition the group has committed offsets for."""


LIST_CONSUMER_GROUP_OFFSETS = Operation(
    "list_consumer_group_offsets", ListConsumerGroupOffsetsArgs, "OffsetFetch",
    "one result per partition (``topic:partition``) with its committed ``offset`` (null: none) and "
    "``metadata``; an error of the group as a whole is a result named by the group (or the exception)",
    lambda topic: (ListConsumerGroupOffsetsArgs(f"{topic}-group"),), java_class="ListConsumerGroupOffsets")
