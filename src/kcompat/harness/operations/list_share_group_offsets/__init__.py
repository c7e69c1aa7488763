"""A share group's start offsets (KIP-932's Admin.listShareGroupOffsets, kafka-clients 4.1+):
DescribeShareGroupOffsets at its coordinator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class ListShareGroupOffsetsArgs:
    group: str
    partitions: Sequence[tuple[str, int]] | None = None
    """(topic, partition) pairs; None: every partition the group has a start offset for."""


LIST_SHARE_GROUP_OFFSETS = Operation(
    "list_share_group_offsets", ListShareGroupOffsetsArgs, "DescribeShareGroupOffsets",
    "one result per partition (``topic:partition``) with its start ``offset`` (null: none); an error of the "
    "group as a whole is a result named by the group (or the exception)",
    lambda topic: (ListShareGroupOffsetsArgs(f"{topic}-group"),), java_class="ListShareGroupOffsets")
