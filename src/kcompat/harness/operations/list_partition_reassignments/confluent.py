"""listPartitionReassignments through confluent-kafka: no release on the axis (2.0.2 to 2.16.1) has AdminClient.list_partition_reassignments
(librdkafka has no such admin API), so the record says the method is missing, as for any release that
lacks one, and nothing is sent."""

from __future__ import annotations

from . import LIST_PARTITION_REASSIGNMENTS, ListPartitionReassignmentsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@LIST_PARTITION_REASSIGNMENTS.implement(ConfluentClient)
def list_partition_reassignments(client: ConfluentClient, args: ListPartitionReassignmentsArgs, version: int | None) -> AdminResult:
    return AdminResult("list_partition_reassignments", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.list_partition_reassignments",
                       librdkafka_version=client.librdkafka_version)
