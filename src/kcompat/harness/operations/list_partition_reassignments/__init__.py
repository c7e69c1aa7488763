"""ListPartitionReassignments (KIP-455): the reassignments in flight, of named partitions or of all."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation
from ..elect_leaders import TopicPartition


@dataclass(frozen=True)
class ListPartitionReassignmentsArgs:
    partitions: Sequence[TopicPartition] | None = None
    """None lists every reassignment in the cluster."""


LIST_PARTITION_REASSIGNMENTS = Operation(
    "list_partition_reassignments", ListPartitionReassignmentsArgs, "ListPartitionReassignments",
    "one result per reassignment in flight (``TopicPartition.label``) with ``replicas``, ``adding_replicas`` and "
    "``removing_replicas``; a call-level error is a result named ``*``",
    lambda topic: (ListPartitionReassignmentsArgs([TopicPartition(topic, 0)]),),
    java_class="ListPartitionReassignments")
