"""listGroups (KIP-1043) after the super user made a classic group (offsets committed, a live member if asked)."""

from __future__ import annotations

from typing import Any

from . import LIST_GROUPS, ListGroupsArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.groups import committed_group, member_as_asked
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, many_common


@probe(ProbeSpec("list_groups", COMMON | {"listed", "type", "state"}, {"types": list, "states": list, "member": str},
                 about="listGroups (`types`: only groups of these types, lower case: `classic`, `consumer`, "
                       "`share`, `streams`; `states`: only groups in these states, Kafka's names) after the super user committed offsets for a new group, a classic "
                       "one (`member`: `dynamic` or `static` adds a live member); `listed` is whether the group "
                       "is listed, `type` and `state` as listed, left out where the client or request version "
                       "does not carry them"))
def list_groups(ctx: ProbeContext) -> dict[str, Any]:
    group, topic = committed_group(ctx, {0: 1})
    with member_as_asked(ctx, group, topic, 1):
        result = ctx.call(LIST_GROUPS, ListGroupsArgs(tuple(ctx.args.get("types", ())), tuple(ctx.args.get("states", ()))))
    observed = many_common(result)
    mine = next((r for r in result.resources if r.resource == group), None)
    observed["listed"] = mine is not None
    for key in ("type", "state"):
        if mine is not None and mine.fields.get(key) is not None:
            observed[key] = mine.fields[key]
    return observed
