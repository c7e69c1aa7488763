"""Alter a streams group's committed offsets through the wire client: the same OffsetCommit, as no member, as
alterConsumerGroupOffsets sends."""

from __future__ import annotations

import dataclasses

from ..alter_consumer_group_offsets import AlterConsumerGroupOffsetsArgs
from . import ALTER_STREAMS_GROUP_OFFSETS, AlterStreamsGroupOffsetsArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ..alter_consumer_group_offsets.wire import alter_consumer_group_offsets


@ALTER_STREAMS_GROUP_OFFSETS.implement(WireClient)
def alter_streams_group_offsets(client: WireClient, args: AlterStreamsGroupOffsetsArgs,
                                version: int | None) -> AdminResult:
    result = alter_consumer_group_offsets(client, AlterConsumerGroupOffsetsArgs(args.group, args.offsets), version)
    return dataclasses.replace(result, operation="alter_streams_group_offsets")
