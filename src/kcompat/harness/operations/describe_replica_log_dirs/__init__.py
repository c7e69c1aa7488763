"""DescribeLogDirs for named replicas (KIP-113's describeReplicaLogDirs): where each replica's log lives."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class Replica:
    """One replica: a partition on one broker (Java's TopicPartitionReplica)."""

    topic: str
    partition: int
    broker: int

    @property
    def label(self) -> str:
        """How every client names its result: ``topic-0@1``."""
        return f"{self.topic}-{self.partition}@{self.broker}"


@dataclass(frozen=True)
class DescribeReplicaLogDirsArgs:
    replicas: Sequence[Replica]


DESCRIBE_REPLICA_LOG_DIRS = Operation(
    "describe_replica_log_dirs", DescribeReplicaLogDirsArgs, "DescribeLogDirs",
    "one result per replica (``Replica.label``): its error, ``current_log_dir``, ``current_offset_lag``, "
    "``future_log_dir``, ``future_offset_lag`` (null where there is none)",
    lambda topic: (DescribeReplicaLogDirsArgs([Replica(topic, 0, 1)]),), java_class="DescribeReplicaLogDirs")
