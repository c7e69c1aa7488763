"""deleteConsumerGroupOffsets through confluent-kafka: no release on the axis has the method (librdkafka's
DeleteConsumerGroupOffsets is not bound in Python), which the record says as data."""

from __future__ import annotations

from . import (
    DELETE_CONSUMER_GROUP_OFFSETS,
    DeleteConsumerGroupOffsetsArgs,
)
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.shared import lacks


@DELETE_CONSUMER_GROUP_OFFSETS.implement(ConfluentClient)
def delete_consumer_group_offsets(client: ConfluentClient, args: DeleteConsumerGroupOffsetsArgs,
                                  version: int | None) -> AdminResult:
    missing = lacks(client, "delete_consumer_group_offsets", "delete_consumer_group_offsets")
    if missing is None:  # a release that gained it: not driven until its signature is known
        missing = AdminResult("delete_consumer_group_offsets", client.kind, client.version, None,
                              exception="NotImplementedError",
                              exception_message=f"kcompat does not drive confluent-kafka {client.version}'s "
                                                "AdminClient.delete_consumer_group_offsets yet",
                              librdkafka_version=client.librdkafka_version)
    return missing
