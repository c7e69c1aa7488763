"""alterPartitionReassignments through confluent-kafka: no release on the axis (2.0.2 to 2.16.1) has AdminClient.alter_partition_reassignments
(librdkafka has no such admin API), so the record says the method is missing, as for any release that
lacks one, and nothing is sent."""

from __future__ import annotations

from . import ALTER_PARTITION_REASSIGNMENTS, AlterPartitionReassignmentsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@ALTER_PARTITION_REASSIGNMENTS.implement(ConfluentClient)
def alter_partition_reassignments(client: ConfluentClient, args: AlterPartitionReassignmentsArgs, version: int | None) -> AdminResult:
    return AdminResult("alter_partition_reassignments", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.alter_partition_reassignments",
                       librdkafka_version=client.librdkafka_version)
