"""alterStreamsGroupOffsets (KIP-1071) of a group the super user committed offsets for: the observation of
alterConsumerGroupOffsets' probe, through the method the javadoc notes does the same."""

from __future__ import annotations

from typing import Any

from . import ALTER_STREAMS_GROUP_OFFSETS, AlterStreamsGroupOffsetsArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON
from ..alter_consumer_group_offsets.probe import altered_offsets


@probe(ProbeSpec("alter_streams_group_offsets", COMMON | {"offsets_after", "altered"},
                 {"committed": list, "to": list, "member": str},
                 about="alterStreamsGroupOffsets of a new group from the offsets the super user committed as no "
                       "member (a group of no streams member: the method does what the consumer group "
                       "one does, on offsets) to `to`; the keys and arguments of `alter_consumer_group_offsets`"))
def alter_streams_group_offsets(ctx: ProbeContext) -> dict[str, Any]:
    return altered_offsets(ctx, lambda group, offsets: ctx.call(ALTER_STREAMS_GROUP_OFFSETS,
                                                                AlterStreamsGroupOffsetsArgs(group, offsets)))
