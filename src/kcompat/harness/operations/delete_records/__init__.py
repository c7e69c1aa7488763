"""DeleteRecords (KIP-107, brokers 0.11+): records below an offset, per partition; each answers its new low
watermark."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class PartitionOffset:
    topic: str
    partition: int
    offset: int

    @property
    def label(self) -> str:
        """How every client names this partition's result: ``topic:0``."""
        return f"{self.topic}:{self.partition}"


@dataclass(frozen=True)
class DeleteRecordsArgs:
    before: Sequence[PartitionOffset]
    """Each partition's records below its offset are deleted (-1: below the high watermark)."""


DELETE_RECORDS = Operation(
    "delete_records", DeleteRecordsArgs, "DeleteRecords",
    "one result per partition (``topic:partition``): its error and ``low_watermark``",
    lambda topic: (DeleteRecordsArgs([PartitionOffset(topic, 0, 0)]),), java_class="DeleteRecords")
