"""alterReplicaLogDirs through confluent-kafka: no release on the axis (2.0.2 to 2.16.1) has AdminClient.alter_replica_log_dirs
(librdkafka has no such admin API), so the record says the method is missing, as for any release that
lacks one, and nothing is sent."""

from __future__ import annotations

from . import ALTER_REPLICA_LOG_DIRS, AlterReplicaLogDirsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@ALTER_REPLICA_LOG_DIRS.implement(ConfluentClient)
def alter_replica_log_dirs(client: ConfluentClient, args: AlterReplicaLogDirsArgs, version: int | None) -> AdminResult:
    return AdminResult("alter_replica_log_dirs", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.alter_replica_log_dirs",
                       librdkafka_version=client.librdkafka_version)
