"""removeMembersFromConsumerGroup of a static member the super user keeps live in a new group."""

from __future__ import annotations

from typing import Any

from . import (
    REMOVE_MEMBERS_FROM_CONSUMER_GROUP,
    RemoveMembersFromConsumerGroupArgs,
)
from ...waiting import attempts
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.setups.groups import committed_group, described, live_member, static_membership
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, many_common

TARGETS = ("member", "unknown")


@probe(ProbeSpec("remove_members_from_consumer_group", COMMON | {"removed", "members_after"}, {"target": str},
                 about="removeMembersFromConsumerGroup of a new group with one live static member (its "
                       "group.instance.id, or with target `unknown` an id no member has; a broker without static "
                       "members, before 2.3, gets a dynamic one and the call names the same id); "
                       "`members_after` is how many members DescribeGroups then shows the super user (awaited, "
                       "bounded, after a call without error), `removed` whether the live member is gone"))
def remove_members_from_consumer_group(ctx: ProbeContext) -> dict[str, Any]:
    target = ctx.args.get("target", "member")
    if target not in TARGETS:
        raise ProbeFailed(f"target is one of {', '.join(TARGETS)}, not {target!r}")
    group, topic = committed_group(ctx, {0: 1})
    instance = f"{group}-instance"
    with live_member(ctx, group, topic, 1, instance if static_membership(ctx) else None) as member:
        removing = instance if target == "member" else f"{group}-nobody"
        result = ctx.call(REMOVE_MEMBERS_FROM_CONSUMER_GROUP, RemoveMembersFromConsumerGroupArgs(group, [removing]))
        observed = many_common(result)
        view = described(ctx, group)
        if observed.get("error") == "NONE" and view.members:
            for _ in attempts(SETTLE, interval=0.2):
                if not (view := described(ctx, group)).members:
                    break
        observed["members_after"] = view.members
        observed["removed"] = member.member_id not in view.member_ids
    return observed
