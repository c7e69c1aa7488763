"""Admin.describeClassicGroups (KIP-1043) through confluent-kafka: no release on the axis has a counterpart
(describe_consumer_groups describes consumer-protocol groups), which the record says as data."""

from __future__ import annotations

from . import DESCRIBE_CLASSIC_GROUPS, DescribeClassicGroupsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@DESCRIBE_CLASSIC_GROUPS.implement(ConfluentClient)
def describe_classic_groups(client: ConfluentClient, args: DescribeClassicGroupsArgs,
                            version: int | None) -> AdminResult:
    return AdminResult("describe_classic_groups", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no counterpart of "
                                         "Admin.describeClassicGroups (KIP-1043)",
                       librdkafka_version=client.librdkafka_version)
