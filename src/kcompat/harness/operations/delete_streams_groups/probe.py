"""deleteStreamsGroups (KIP-1071) of a group the super user made: the observation of deleteConsumerGroups'
probe, through the method the javadoc notes does the same."""

from __future__ import annotations

from typing import Any

from . import DELETE_STREAMS_GROUPS, DeleteStreamsGroupsArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON
from ..delete_consumer_groups.probe import deleted_group


@probe(ProbeSpec("delete_streams_groups", COMMON | {"deleted"}, {"member": str},
                 about="deleteStreamsGroups of a new group the super user committed offsets for as no member (a "
                       "group of no streams member: the set-up speaks kio, which has no StreamsGroupHeartbeat); "
                       "the keys and arguments of `delete_consumer_groups`"))
def delete_streams_groups(ctx: ProbeContext) -> dict[str, Any]:
    return deleted_group(ctx, lambda group: ctx.call(DELETE_STREAMS_GROUPS, DeleteStreamsGroupsArgs([group])))
