"""listConsumerGroups after the super user made a group (offsets committed, and a live member if asked)."""

from __future__ import annotations

from typing import Any

from . import LIST_CONSUMER_GROUPS, ListConsumerGroupsArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.groups import committed_group, member_as_asked
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, many_common


@probe(ProbeSpec("list_consumer_groups", COMMON | {"listed", "state"},
                 {"states": list, "member": str},
                 about="listConsumerGroups (`states`: only groups in these states, Kafka's names such as `Empty`, "
                       "`Stable`) after the super user committed offsets for a new group (`member`: `dynamic` or "
                       "`static` adds a live member); `listed` is whether the group is listed, `state` its state "
                       "as listed, left out where the client or request version does not carry it"))
def list_consumer_groups(ctx: ProbeContext) -> dict[str, Any]:
    group, topic = committed_group(ctx, {0: 1})
    with member_as_asked(ctx, group, topic, 1):
        result = ctx.call(LIST_CONSUMER_GROUPS, ListConsumerGroupsArgs(tuple(ctx.args.get("states", ()))))
    observed = many_common(result)
    mine = [r for r in result.resources if r.resource == group]
    observed["listed"] = bool(mine)
    if mine and "state" in mine[0].fields and mine[0].fields["state"] is not None:
        observed["state"] = mine[0].fields["state"]
    return observed
