"""describeStreamsGroups (KIP-1071) of a group nobody made: a streams group is made only by a member's
StreamsGroupHeartbeat, which kio (the super user's set-up) has no schema of, and no admin call makes one."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_STREAMS_GROUPS, DescribeStreamsGroupsArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON
from ..describe_consumer_groups.probe import described_group


@probe(ProbeSpec("describe_streams_groups", COMMON | {"described", "state", "members"}, {},
                 about="describeStreamsGroups of a new group id nobody made (a streams group is made only by a "
                       "member's StreamsGroupHeartbeat, which kio has no schema of); `described` is whether the "
                       "group came back without error, `state` and `members` as described"))
def describe_streams_groups(ctx: ProbeContext) -> dict[str, Any]:
    group = ctx.topic("kc-streams-group")
    result = ctx.call(DESCRIBE_STREAMS_GROUPS, DescribeStreamsGroupsArgs([group]))
    observed = described_group(ctx, result, group)
    return {k: v for k, v in observed.items() if k in COMMON | {"described", "state", "members"}}
