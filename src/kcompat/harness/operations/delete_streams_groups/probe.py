"""deleteStreamsGroups (KIP-1071) of a group the super user made: the observation of deleteConsumerGroups'
probe, through the method the javadoc notes does the same; or of a streams group while its live member is in it."""

from __future__ import annotations

from typing import Any

from ...clients import AdminResult
from . import DELETE_STREAMS_GROUPS, DeleteStreamsGroupsArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, many_common
from ...matrix.setups.groups import listed_groups
from ...matrix.setups.streams_groups import streams_member, streams_topic
from ..delete_consumer_groups.probe import deleted_group


@probe(ProbeSpec("delete_streams_groups", COMMON | {"deleted"}, {"member": str},
                 about="deleteStreamsGroups of a new group the super user committed offsets for as no member; the "
                       "keys and arguments of `delete_consumer_groups`, and `member` `streams`: instead of a new "
                       "streams group one live member made (StreamsGroupHeartbeat, a one-subtopology topology), "
                       "still a member during the call"))
def delete_streams_groups(ctx: ProbeContext) -> dict[str, Any]:
    def delete(group: str) -> AdminResult:
        return ctx.call(DELETE_STREAMS_GROUPS, DeleteStreamsGroupsArgs([group]))

    if ctx.args.get("member") != "streams":
        return deleted_group(ctx, delete)
    group = ctx.topic("kc-streams-group")
    with streams_member(ctx, group, streams_topic(ctx)):
        observed = many_common(delete(group))
        observed["deleted"] = group not in listed_groups(ctx)
    return observed
