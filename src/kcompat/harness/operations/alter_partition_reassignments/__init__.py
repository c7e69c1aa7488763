"""AlterPartitionReassignments (KIP-455): new replicas for partitions, or a reassignment cancelled."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation
from ..elect_leaders import TopicPartition


@dataclass(frozen=True)
class Reassignment:
    partition: TopicPartition
    replicas: Sequence[int] | None
    """The target replica broker ids; None cancels the partition's reassignment in flight."""


@dataclass(frozen=True)
class AlterPartitionReassignmentsArgs:
    reassignments: Sequence[Reassignment]


ALTER_PARTITION_REASSIGNMENTS = Operation(
    "alter_partition_reassignments", AlterPartitionReassignmentsArgs, "AlterPartitionReassignments",
    "one result per partition (``TopicPartition.label``): its error",
    lambda topic: (AlterPartitionReassignmentsArgs([Reassignment(TopicPartition(topic, 0), [1])]),),
    java_class="AlterPartitionReassignments")
