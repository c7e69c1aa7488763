"""describeConsumerGroups of a group the super user made (offsets committed, and a live member if asked)."""

from __future__ import annotations

from typing import Any

from ...clients import AdminResult
from ...clients.kinds.wire.groups import coordinator
from . import DESCRIBE_CONSUMER_GROUPS, DescribeConsumerGroupsArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.groups import committed_group, member_as_asked
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, many_common


@probe(ProbeSpec("describe_consumer_groups", COMMON | {"described", "state", "members", "member_instance_ids",
                                                       "coordinator_found", "authorized_operations"},
                 {"member": str, "include_authorized_operations": bool},
                 about="describeConsumerGroups of a new group the super user committed offsets for (`member`: "
                       "`dynamic` or `static` adds a live member); `described` is whether the group came back "
                       "without error, `members` how many members it has, `member_instance_ids` their "
                       "group.instance.id (null: dynamic), `coordinator_found` whether the coordinator is the "
                       "node FindCoordinator names, `authorized_operations` the operation names (null: not "
                       "given), left out where the client has no such field"))
def describe_consumer_groups(ctx: ProbeContext) -> dict[str, Any]:
    group, topic = committed_group(ctx, {0: 1})
    asked = bool(ctx.args.get("include_authorized_operations", False))
    with member_as_asked(ctx, group, topic, 1):
        result = ctx.call(DESCRIBE_CONSUMER_GROUPS, DescribeConsumerGroupsArgs([group], asked))
    return described_group(ctx, result, group)


def described_group(ctx: ProbeContext, result: AdminResult, group: str) -> dict[str, Any]:
    """The observation of a describe call's result for ``group`` (describeClassicGroups' probe shares it)."""
    observed = many_common(result)
    mine = next((r for r in result.resources if r.resource == group), None)
    observed["described"] = mine is not None and mine.error_code == 0 and mine.exception is None
    if mine is None or not observed["described"]:
        return observed
    fields = mine.fields
    if "state" in fields:
        observed["state"] = fields["state"]
    if isinstance(fields.get("members"), list):
        observed["members"] = len(fields["members"])
        observed["member_instance_ids"] = [m.get("group_instance_id") for m in fields["members"]]
    if "coordinator" in fields:
        observed["coordinator_found"] = fields["coordinator"] == coordinator(ctx.admin, group).node_id
    if "authorized_operations" in fields:
        operations = fields["authorized_operations"]
        observed["authorized_operations"] = None if operations is None else sorted(operations)
    return observed
