"""deleteShareGroups (KIP-932) of a share group made for it, empty or with a live member; whether the broker
still lists it."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from . import DELETE_SHARE_GROUPS, DeleteShareGroupsArgs
from ...waiting import attempts
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.setups.groups import listed_groups
from ...matrix.setups.share_groups import judged_without_group, made_share_group, share_member, share_topic
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, many_common


@probe(ProbeSpec("delete_share_groups", COMMON | {"deleted"}, {"member": bool},
                 about="deleteShareGroups of a new share group the super user made (empty) with "
                       "AlterShareGroupOffsets on a new topic (`member`: and joined as a live member, "
                       "ShareGroupHeartbeat, for the call); `deleted` is whether "
                       "ListGroups, as the super user, no longer lists the group (awaited, bounded, after a call "
                       "without error)"))
def delete_share_groups(ctx: ProbeContext) -> dict[str, Any]:
    topic = share_topic(ctx)
    group, made = made_share_group(ctx, topic, {0: 0})
    if made and not any(group in listed_groups(ctx) for _ in attempts(SETTLE, interval=0.2)):
        raise ProbeFailed(f"set-up: ListGroups as the super user did not list new share group {group} "
                          f"within {SETTLE:.0f}s")
    with share_member(ctx, group, topic) if made and ctx.args.get("member", False) else nullcontext():
        result = ctx.call(DELETE_SHARE_GROUPS, DeleteShareGroupsArgs([group]))
        observed = many_common(result)
        judged_without_group(ctx, made, observed, "delete")
        listed = group in listed_groups(ctx)
    if observed.get("error") == "NONE" and listed:
        for _ in attempts(SETTLE, interval=0.2):
            if not (listed := group in listed_groups(ctx)):
                break
    observed["deleted"] = not listed
    return observed
