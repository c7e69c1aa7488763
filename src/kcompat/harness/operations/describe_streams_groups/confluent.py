"""Admin.describeStreamsGroups (KIP-1071) through confluent-kafka: no release on the axis (2.0 to 2.16) has streams-group
admin calls, which the record says as data (NotImplementedError), never an exception."""

from __future__ import annotations

from . import DESCRIBE_STREAMS_GROUPS, DescribeStreamsGroupsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@DESCRIBE_STREAMS_GROUPS.implement(ConfluentClient)
def describe_streams_groups(client: ConfluentClient, args: DescribeStreamsGroupsArgs, version: int | None) -> AdminResult:
    return AdminResult("describe_streams_groups", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.describe_streams_groups",
                       librdkafka_version=client.librdkafka_version)
