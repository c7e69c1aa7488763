"""Admin.alterShareGroupOffsets (KIP-932) through confluent-kafka: no release on the axis (2.0 to 2.16) has share-group
admin calls, which the record says as data (NotImplementedError), never an exception."""

from __future__ import annotations

from . import ALTER_SHARE_GROUP_OFFSETS, AlterShareGroupOffsetsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@ALTER_SHARE_GROUP_OFFSETS.implement(ConfluentClient)
def alter_share_group_offsets(client: ConfluentClient, args: AlterShareGroupOffsetsArgs, version: int | None) -> AdminResult:
    return AdminResult("alter_share_group_offsets", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.alter_share_group_offsets",
                       librdkafka_version=client.librdkafka_version)
