"""Admin.deleteShareGroupOffsets (KIP-932) through confluent-kafka: no release on the axis (2.0 to 2.16) has share-group
admin calls, which the record says as data (NotImplementedError), never an exception."""

from __future__ import annotations

from . import DELETE_SHARE_GROUP_OFFSETS, DeleteShareGroupOffsetsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@DELETE_SHARE_GROUP_OFFSETS.implement(ConfluentClient)
def delete_share_group_offsets(client: ConfluentClient, args: DeleteShareGroupOffsetsArgs, version: int | None) -> AdminResult:
    return AdminResult("delete_share_group_offsets", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.delete_share_group_offsets",
                       librdkafka_version=client.librdkafka_version)
