"""listStreamsGroupOffsets (KIP-1071) of a group the super user committed offsets for: the observation of
listConsumerGroupOffsets' probe, through the method the javadoc notes does the same."""

from __future__ import annotations

from typing import Any

from . import LIST_STREAMS_GROUP_OFFSETS, ListStreamsGroupOffsetsArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON
from ..list_consumer_group_offsets.probe import listed_offsets


@probe(ProbeSpec("list_streams_group_offsets", COMMON | {"offsets"}, {"committed": list, "member": str},
                 about="listStreamsGroupOffsets of every partition of a new group whose offsets the super user "
                       "committed as no member (a group of no streams member: the method does what the consumer group one does, on "
                       "offsets); the keys and arguments of `list_consumer_group_offsets`"))
def list_streams_group_offsets(ctx: ProbeContext) -> dict[str, Any]:
    return listed_offsets(ctx, lambda group: ctx.call(LIST_STREAMS_GROUP_OFFSETS,
                                                      ListStreamsGroupOffsetsArgs(group)))
