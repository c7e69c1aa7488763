"""describeShareGroups (KIP-932) of a share group made for it (src/kcompat/harness/matrix/setups/share_groups.py),
empty or with a live member."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from . import DESCRIBE_SHARE_GROUPS, DescribeShareGroupsArgs
from ...matrix.probe import ProbeContext
from ...clients import AdminResult
from ...matrix.setups.share_groups import judged_without_group, made_share_group, share_member, share_topic
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON
from ..describe_consumer_groups.probe import described_group


@probe(ProbeSpec("describe_share_groups", COMMON | {"described", "state", "members", "member_instance_ids",
                                                    "coordinator_found", "authorized_operations",
                                                    "assigned_partitions"},
                 {"include_authorized_operations": bool, "member": bool},
                 about="describeShareGroups of a new share group the super user made (empty) with "
                       "AlterShareGroupOffsets on a new one-partition topic (`member`: and joined as a live member, "
                       "ShareGroupHeartbeat, assigned that topic); the keys of `describe_consumer_groups`, and "
                       "`assigned_partitions` the topic's partitions the members' assignments name (left out "
                       "where the client does not carry assignments)"))
def describe_share_groups(ctx: ProbeContext) -> dict[str, Any]:
    topic = share_topic(ctx)
    group, made = made_share_group(ctx, topic, {0: 0})
    asked = bool(ctx.args.get("include_authorized_operations", False))
    live = made and bool(ctx.args.get("member", False))
    with share_member(ctx, group, topic) if live else nullcontext():
        result = ctx.call(DESCRIBE_SHARE_GROUPS, DescribeShareGroupsArgs([group], asked))
    observed = described_group(ctx, result, group)
    judged_without_group(ctx, made, observed, "describe")
    if (assigned := assigned_partitions(result, group, topic)) is not None:
        observed["assigned_partitions"] = assigned
    return observed


def assigned_partitions(result: AdminResult, group: str, prefix: str) -> list[int] | None:
    """The partitions of ``prefix`` (a topic, or a streams subtopology) that the group's members' assignments
    name (``prefix:partition``), sorted; None where the description has no members' assignments."""
    mine = next((r for r in result.resources if r.resource == group and r.error_code == 0), None)
    members = mine.fields.get("members") if mine is not None else None
    if not isinstance(members, list) or not members or any("assignment" not in m for m in members):
        return None
    return sorted(int(name.rpartition(":")[2]) for m in members for name in m["assignment"] or ()
                  if name.rpartition(":")[0] == prefix)
