"""deleteStreamsGroupOffsets (KIP-1071) of a group the super user committed offsets for: the observation of
deleteConsumerGroupOffsets' probe, through the method the javadoc notes does the same."""

from __future__ import annotations

from typing import Any

from . import DELETE_STREAMS_GROUP_OFFSETS, DeleteStreamsGroupOffsetsArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON
from ..delete_consumer_group_offsets.probe import deleted_offsets


@probe(ProbeSpec("delete_streams_group_offsets", COMMON | {"offsets_after", "deleted"},
                 {"committed": list, "member": str},
                 about="deleteStreamsGroupOffsets of every partition of a new group whose offsets the super user "
                       "committed as no member (a group of no streams member: the method does what the consumer group one does, on "
                       "offsets); the keys and arguments of `delete_consumer_group_offsets`"))
def delete_streams_group_offsets(ctx: ProbeContext) -> dict[str, Any]:
    return deleted_offsets(ctx, lambda group, partitions: ctx.call(
        DELETE_STREAMS_GROUP_OFFSETS, DeleteStreamsGroupOffsetsArgs(group, partitions)))
