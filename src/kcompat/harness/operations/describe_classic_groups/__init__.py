"""Describe classic groups (KIP-1043's Admin.describeClassicGroups, kafka-clients 4.0+): DescribeGroups at each
group's coordinator, for groups of any classic protocol."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeClassicGroupsArgs:
    groups: Sequence[str]
    include_authorized_operations: bool = False


DESCRIBE_CLASSIC_GROUPS = Operation(
    "describe_classic_groups", DescribeClassicGroupsArgs, "DescribeGroups",
    "one result per group: ``state``, ``members`` (member_id, client_id, host, group_instance_id), "
    "``coordinator`` (node id), ``authorized_operations`` (names, or null where not asked or not given)",
    lambda topic: (DescribeClassicGroupsArgs([f"{topic}-group"]),), java_class="DescribeClassicGroups")
