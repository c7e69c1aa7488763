"""ElectLeaders (KIP-183 preferred, KIP-460 unclean): a new leader for each named partition."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .. import Operation

ElectionType = Literal["preferred", "unclean"]
ELECTION_TYPES: dict[str, int] = {"preferred": 0, "unclean": 1}
"""Kafka's ElectionType by wire value."""


@dataclass(frozen=True)
class TopicPartition:
    topic: str
    partition: int

    @property
    def label(self) -> str:
        """How every client names its result: ``topic-0``."""
        return f"{self.topic}-{self.partition}"


@dataclass(frozen=True)
class ElectLeadersArgs:
    election_type: ElectionType
    partitions: Sequence[TopicPartition]


ELECT_LEADERS = Operation(
    "elect_leaders", ElectLeadersArgs, "ElectLeaders",
    "one result per partition (``TopicPartition.label``): its error",
    lambda topic: (ElectLeadersArgs("preferred", [TopicPartition(topic, 0)]),), java_class="ElectLeaders")
