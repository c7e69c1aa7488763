"""describeReplicaLogDirs through confluent-kafka: no release on the axis (2.0.2 to 2.16.1) has AdminClient.describe_replica_log_dirs
(librdkafka has no such admin API), so the record says the method is missing, as for any release that
lacks one, and nothing is sent."""

from __future__ import annotations

from . import DESCRIBE_REPLICA_LOG_DIRS, DescribeReplicaLogDirsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@DESCRIBE_REPLICA_LOG_DIRS.implement(ConfluentClient)
def describe_replica_log_dirs(client: ConfluentClient, args: DescribeReplicaLogDirsArgs, version: int | None) -> AdminResult:
    return AdminResult("describe_replica_log_dirs", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.describe_replica_log_dirs",
                       librdkafka_version=client.librdkafka_version)
