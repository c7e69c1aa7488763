"""describeShareGroups (KIP-932) of a share group made for it (src/kcompat/harness/matrix/setups/share_groups.py)."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_SHARE_GROUPS, DescribeShareGroupsArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.share_groups import judged_without_group, made_share_group, share_topic
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON
from ..describe_consumer_groups.probe import described_group


@probe(ProbeSpec("describe_share_groups", COMMON | {"described", "state", "members", "member_instance_ids",
                                                    "coordinator_found", "authorized_operations"},
                 {"include_authorized_operations": bool},
                 about="describeShareGroups of a new share group the super user made (empty) with "
                       "AlterShareGroupOffsets on a new topic; the keys of `describe_consumer_groups`"))
def describe_share_groups(ctx: ProbeContext) -> dict[str, Any]:
    group, made = made_share_group(ctx, share_topic(ctx), {0: 0})
    asked = bool(ctx.args.get("include_authorized_operations", False))
    result = ctx.call(DESCRIBE_SHARE_GROUPS, DescribeShareGroupsArgs([group], asked))
    observed = described_group(ctx, result, group)
    judged_without_group(ctx, made, observed, "describe")
    return observed
