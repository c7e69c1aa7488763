"""Admin.listGroups (KIP-1043) through confluent-kafka: no release on the axis has a counterpart (its
list_groups is the legacy listing of ListGroups and DescribeGroups, without group types, and its
list_consumer_groups lists consumer-protocol groups only), which the record says as data."""

from __future__ import annotations

from . import LIST_GROUPS, ListGroupsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@LIST_GROUPS.implement(ConfluentClient)
def list_groups(client: ConfluentClient, args: ListGroupsArgs, version: int | None) -> AdminResult:
    return AdminResult("list_groups", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no counterpart of Admin.listGroups "
                                         "(KIP-1043)", librdkafka_version=client.librdkafka_version)
