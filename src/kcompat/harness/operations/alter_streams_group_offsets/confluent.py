"""Admin.alterStreamsGroupOffsets (KIP-1071) through confluent-kafka: no release on the axis (2.0 to 2.16) has streams-group
admin calls, which the record says as data (NotImplementedError), never an exception."""

from __future__ import annotations

from . import ALTER_STREAMS_GROUP_OFFSETS, AlterStreamsGroupOffsetsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@ALTER_STREAMS_GROUP_OFFSETS.implement(ConfluentClient)
def alter_streams_group_offsets(client: ConfluentClient, args: AlterStreamsGroupOffsetsArgs, version: int | None) -> AdminResult:
    return AdminResult("alter_streams_group_offsets", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.alter_streams_group_offsets",
                       librdkafka_version=client.librdkafka_version)
