"""removeMembersFromConsumerGroup through confluent-kafka: no release on the axis has the method, which the
record says as data."""

from __future__ import annotations

from . import (
    REMOVE_MEMBERS_FROM_CONSUMER_GROUP,
    RemoveMembersFromConsumerGroupArgs,
)
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.shared import lacks


@REMOVE_MEMBERS_FROM_CONSUMER_GROUP.implement(ConfluentClient)
def remove_members_from_consumer_group(client: ConfluentClient, args: RemoveMembersFromConsumerGroupArgs,
                                       version: int | None) -> AdminResult:
    missing = lacks(client, "remove_members_from_consumer_group", "remove_members_from_consumer_group")
    if missing is None:  # a release that gained it: not driven until its signature is known
        missing = AdminResult("remove_members_from_consumer_group", client.kind, client.version, None,
                              exception="NotImplementedError",
                              exception_message=f"kcompat does not drive confluent-kafka {client.version}'s "
                                                "AdminClient.remove_members_from_consumer_group yet",
                              librdkafka_version=client.librdkafka_version)
    return missing
