"""Delete consumer groups (DeleteGroups, KIP-229, at each group's coordinator)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DeleteConsumerGroupsArgs:
    groups: Sequence[str]


DELETE_CONSUMER_GROUPS = Operation(
    "delete_consumer_groups", DeleteConsumerGroupsArgs, "DeleteGroups", "one result per group: its error",
    lambda topic: (DeleteConsumerGroupsArgs([f"{topic}-group"]),), java_class="DeleteConsumerGroups")
