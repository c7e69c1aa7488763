"""Describe consumer groups (DescribeGroups at each group's coordinator)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeConsumerGroupsArgs:
    groups: Sequence[str]
    include_authorized_operations: bool = False
    """KIP-430 (DescribeGroups v3+): the operations the caller may perform on each group."""


DESCRIBE_CONSUMER_GROUPS = Operation(
    "describe_consumer_groups", DescribeConsumerGroupsArgs, "DescribeGroups",
    "one result per group: ``state``, ``members`` (member_id, client_id, host, group_instance_id), "
    "``coordinator`` (node id), ``authorized_operations`` (names, or null where not asked or not given)",
    lambda topic: (DescribeConsumerGroupsArgs([f"{topic}-group"], True),), java_class="DescribeConsumerGroups")
