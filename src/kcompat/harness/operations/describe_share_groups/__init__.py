"""Describe share groups (KIP-932's Admin.describeShareGroups, kafka-clients 4.0+): ShareGroupDescribe at each
group's coordinator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeShareGroupsArgs:
    groups: Sequence[str]
    include_authorized_operations: bool = False


DESCRIBE_SHARE_GROUPS = Operation(
    "describe_share_groups", DescribeShareGroupsArgs, "ShareGroupDescribe",
    "one result per group: ``state``, ``members`` (member_id, client_id, host), ``coordinator`` (node id), "
    "``authorized_operations`` (names, or null where not asked or not given)",
    lambda topic: (DescribeShareGroupsArgs([f"{topic}-group"]),), java_class="DescribeShareGroups")
