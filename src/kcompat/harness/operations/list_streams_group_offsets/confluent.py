"""Admin.listStreamsGroupOffsets (KIP-1071) through confluent-kafka: no release on the axis (2.0 to 2.16) has streams-group
admin calls, which the record says as data (NotImplementedError), never an exception."""

from __future__ import annotations

from . import LIST_STREAMS_GROUP_OFFSETS, ListStreamsGroupOffsetsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@LIST_STREAMS_GROUP_OFFSETS.implement(ConfluentClient)
def list_streams_group_offsets(client: ConfluentClient, args: ListStreamsGroupOffsetsArgs, version: int | None) -> AdminResult:
    return AdminResult("list_streams_group_offsets", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.list_streams_group_offsets",
                       librdkafka_version=client.librdkafka_version)
