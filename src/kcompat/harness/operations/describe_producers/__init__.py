"""DescribeProducers (KIP-664): the active producers the partition leader keeps state for."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeProducersArgs:
    topic: str
    partitions: Sequence[int] = (0,)


DESCRIBE_PRODUCERS = Operation(
    "describe_producers", DescribeProducersArgs, "DescribeProducers",
    "one result per partition (`topic:partition`): its error and `producers`, each producer's id, epoch, last "
    "sequence, last timestamp, coordinator epoch and open transaction's start offset",
    lambda topic: (DescribeProducersArgs(topic),), java_class="DescribeProducers")
