"""Delete share groups (KIP-932's Admin.deleteShareGroups, kafka-clients 4.1+): DeleteGroups at each group's
coordinator, the request deleteConsumerGroups sends."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DeleteShareGroupsArgs:
    groups: Sequence[str]


DELETE_SHARE_GROUPS = Operation(
    "delete_share_groups", DeleteShareGroupsArgs, "DeleteGroups", "one result per group: its error",
    lambda topic: (DeleteShareGroupsArgs([f"{topic}-group"]),), java_class="DeleteShareGroups")
