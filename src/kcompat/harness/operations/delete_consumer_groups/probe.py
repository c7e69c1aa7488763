"""deleteConsumerGroups of a group the super user made (offsets committed, and a live member if asked)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...clients import AdminResult
from . import DELETE_CONSUMER_GROUPS, DeleteConsumerGroupsArgs
from ...waiting import attempts
from ...matrix.probe import ProbeContext
from ...matrix.setups.groups import committed_group, listed_groups, member_as_asked
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, many_common


@probe(ProbeSpec("delete_consumer_groups", COMMON | {"deleted"}, {"member": str},
                 about="deleteConsumerGroups of a new group the super user committed offsets for (`member`: "
                       "`dynamic` or `static` keeps a live member in it during the call); `deleted` is whether "
                       "ListGroups, as the super user, no longer lists the group (awaited, bounded, after a "
                       "call without error)"))
def delete_consumer_groups(ctx: ProbeContext) -> dict[str, Any]:
    return deleted_group(ctx, lambda group: ctx.call(DELETE_CONSUMER_GROUPS, DeleteConsumerGroupsArgs([group])))


def deleted_group(ctx: ProbeContext, delete: Callable[[str], AdminResult]) -> dict[str, Any]:
    """The observation, whichever method deletes the group (``delete(group)``: deleteStreamsGroups sends the
    same DeleteGroups)."""
    group, topic = committed_group(ctx, {0: 1})
    with member_as_asked(ctx, group, topic, 1):
        result = delete(group)
    observed = many_common(result)
    listed = group in listed_groups(ctx)
    if observed.get("error") == "NONE" and listed:
        for _ in attempts(SETTLE, interval=0.2):
            if not (listed := group in listed_groups(ctx)):
                break
    observed["deleted"] = not listed
    return observed
