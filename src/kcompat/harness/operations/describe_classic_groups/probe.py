"""describeClassicGroups (KIP-1043) of a classic group the super user made (offsets committed, a live member if
asked): the observation of describeConsumerGroups' probe, through the other method."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_CLASSIC_GROUPS, DescribeClassicGroupsArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.groups import committed_group, member_as_asked
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON
from ..describe_consumer_groups.probe import described_group


@probe(ProbeSpec("describe_classic_groups", COMMON | {"described", "state", "members", "member_instance_ids",
                                                      "coordinator_found", "authorized_operations"},
                 {"member": str, "include_authorized_operations": bool},
                 about="describeClassicGroups of a new classic group the super user committed offsets for "
                       "(`member`: `dynamic` or `static` adds a live member); the keys of "
                       "`describe_consumer_groups`"))
def describe_classic_groups(ctx: ProbeContext) -> dict[str, Any]:
    group, topic = committed_group(ctx, {0: 1})
    asked = bool(ctx.args.get("include_authorized_operations", False))
    with member_as_asked(ctx, group, topic, 1):
        result = ctx.call(DESCRIBE_CLASSIC_GROUPS, DescribeClassicGroupsArgs([group], asked))
    return described_group(ctx, result, group)
