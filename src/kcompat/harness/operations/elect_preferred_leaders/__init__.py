"""ElectLeaders of the preferred replicas (KIP-183's electPreferredLeaders, kafka-clients 2.2 to 2.8): the
call electLeaders replaced, judged on its own against the releases that still document it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation
from ..elect_leaders import TopicPartition


@dataclass(frozen=True)
class ElectPreferredLeadersArgs:
    partitions: Sequence[TopicPartition]


ELECT_PREFERRED_LEADERS = Operation(
    "elect_preferred_leaders", ElectPreferredLeadersArgs, "ElectLeaders",
    "one result per partition (``TopicPartition.label``): its error",
    lambda topic: (ElectPreferredLeadersArgs([TopicPartition(topic, 0)]),), java_class="ElectPreferredLeaders")
