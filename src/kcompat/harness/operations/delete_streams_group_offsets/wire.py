"""Delete a streams group's committed offsets through the wire client: the same OffsetDelete as
deleteConsumerGroupOffsets sends."""

from __future__ import annotations

import dataclasses

from ..delete_consumer_group_offsets import DeleteConsumerGroupOffsetsArgs
from . import DELETE_STREAMS_GROUP_OFFSETS, DeleteStreamsGroupOffsetsArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ..delete_consumer_group_offsets.wire import delete_consumer_group_offsets


@DELETE_STREAMS_GROUP_OFFSETS.implement(WireClient)
def delete_streams_group_offsets(client: WireClient, args: DeleteStreamsGroupOffsetsArgs,
                                 version: int | None) -> AdminResult:
    result = delete_consumer_group_offsets(client, DeleteConsumerGroupOffsetsArgs(args.group, args.partitions),
                                           version)
    return dataclasses.replace(result, operation="delete_streams_group_offsets")
