"""AlterReplicaLogDirs (KIP-113): move replicas to another log directory of their broker."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation
from ..describe_replica_log_dirs import Replica


@dataclass(frozen=True)
class ReplicaMove:
    replica: Replica
    log_dir: str
    """The absolute path of a log directory of the replica's broker."""


@dataclass(frozen=True)
class AlterReplicaLogDirsArgs:
    moves: Sequence[ReplicaMove]


ALTER_REPLICA_LOG_DIRS = Operation(
    "alter_replica_log_dirs", AlterReplicaLogDirsArgs, "AlterReplicaLogDirs",
    "one result per replica (``Replica.label``): its error",
    lambda topic: (AlterReplicaLogDirsArgs([ReplicaMove(Replica(topic, 0, 1), "/tmp/kcompat-limits")]),),
    java_class="AlterReplicaLogDirs")
