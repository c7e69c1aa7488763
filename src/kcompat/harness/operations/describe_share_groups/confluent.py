"""Admin.describeShareGroups (KIP-932) through confluent-kafka: no release on the axis (2.0 to 2.16) has share-group
admin calls, which the record says as data (NotImplementedError), never an exception."""

from __future__ import annotations

from . import DESCRIBE_SHARE_GROUPS, DescribeShareGroupsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@DESCRIBE_SHARE_GROUPS.implement(ConfluentClient)
def describe_share_groups(client: ConfluentClient, args: DescribeShareGroupsArgs, version: int | None) -> AdminResult:
    return AdminResult("describe_share_groups", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.describe_share_groups",
                       librdkafka_version=client.librdkafka_version)
