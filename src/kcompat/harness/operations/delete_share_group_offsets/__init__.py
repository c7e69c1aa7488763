"""Delete a share group's offsets of whole topics (KIP-932's Admin.deleteShareGroupOffsets, kafka-clients
4.1+): DeleteShareGroupOffsets at its coordinator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DeleteShareGroupOffsetsArgs:
    group: str
    topics: Sequence[str]


DELETE_SHARE_GROUP_OFFSETS = Operation(
    "delete_share_group_offsets", DeleteShareGroupOffsetsArgs, "DeleteShareGroupOffsets",
    "one result per topic: its error; an error of the group as a whole is a result named by the group (or the "
    "exception)",
    lambda topic: (DeleteShareGroupOffsetsArgs(f"{topic}-group", [topic]),), java_class="DeleteShareGroupOffsets")
