"""Alter a share group's start offsets (KIP-932's Admin.alterShareGroupOffsets, kafka-clients 4.1+):
AlterShareGroupOffsets at its coordinator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class AlterShareGroupOffsetsArgs:
    group: str
    offsets: Sequence[tuple[str, int, int]]
    """(topic, partition, start offset) triples."""


ALTER_SHARE_GROUP_OFFSETS = Operation(
    "alter_share_group_offsets", AlterShareGroupOffsetsArgs, "AlterShareGroupOffsets",
    "one result per partition (``topic:partition``): its error; an error of the group as a whole is a result "
    "named by the group (or the exception)",
    lambda topic: (AlterShareGroupOffsetsArgs(f"{topic}-group", [(topic, 0, 0)]),),
    java_class="AlterShareGroupOffsets")
