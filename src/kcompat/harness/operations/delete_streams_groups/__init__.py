"""Delete streams groups (KIP-1071's Admin.deleteStreamsGroups, kafka-clients 4.1+): the DeleteGroups of
deleteConsumerGroups, at each group's coordinator, as its javadoc's note says."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DeleteStreamsGroupsArgs:
    groups: Sequence[str]


DELETE_STREAMS_GROUPS = Operation(
    "delete_streams_groups", DeleteStreamsGroupsArgs, "DeleteGroups", "one result per group: its error",
    lambda topic: (DeleteStreamsGroupsArgs([f"{topic}-group"]),), java_class="DeleteStreamsGroups")
