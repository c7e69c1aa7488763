"""Describe streams groups (KIP-1071's Admin.describeStreamsGroups, kafka-clients 4.1+): StreamsGroupDescribe at
each group's coordinator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeStreamsGroupsArgs:
    groups: Sequence[str]
    include_authorized_operations: bool = False


DESCRIBE_STREAMS_GROUPS = Operation(
    "describe_streams_groups", DescribeStreamsGroupsArgs, "StreamsGroupDescribe",
    "one result per group: ``state``, ``members`` (member_id, client_id, host), ``coordinator`` (node id), "
    "``authorized_operations`` (names, or null where not asked or not given)",
    lambda topic: (DescribeStreamsGroupsArgs([f"{topic}-group"]),), java_class="DescribeStreamsGroups")
