"""A streams group's committed offsets through the wire client: the same OffsetFetch as
listConsumerGroupOffsets sends (the protocol has one request for every group type)."""

from __future__ import annotations

import dataclasses

from ..list_consumer_group_offsets import ListConsumerGroupOffsetsArgs
from . import LIST_STREAMS_GROUP_OFFSETS, ListStreamsGroupOffsetsArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ..list_consumer_group_offsets.wire import list_consumer_group_offsets


@LIST_STREAMS_GROUP_OFFSETS.implement(WireClient)
def list_streams_group_offsets(client: WireClient, args: ListStreamsGroupOffsetsArgs,
                               version: int | None) -> AdminResult:
    result = list_consumer_group_offsets(client, ListConsumerGroupOffsetsArgs(args.group, args.partitions), version)
    return dataclasses.replace(result, operation="list_streams_group_offsets")
