"""ListOffsets: a partition's earliest or latest offset, the first at or after a timestamp, or (KIP-734,
ListOffsets v7+) the one with the largest timestamp."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .. import Operation

Spec = Literal["earliest", "latest", "timestamp", "max_timestamp"]
SPEC_TIMESTAMPS: dict[str, int] = {"earliest": -2, "latest": -1, "max_timestamp": -3}
"""The timestamp each spec is on the wire (ListOffsetsRequest's EARLIEST/LATEST/MAX_TIMESTAMP)."""
MAX_TIMESTAMP_SINCE = 7
"""The first ListOffsets version that carries the max-timestamp spec (KIP-734)."""


@dataclass(frozen=True)
class OffsetQuery:
    topic: str
    partition: int
    spec: Spec
    timestamp: int | None = None
    """The timestamp (ms) of spec ``timestamp``."""

    @property
    def label(self) -> str:
        """How every client names this partition's result: ``topic:0``."""
        return f"{self.topic}:{self.partition}"


@dataclass(frozen=True)
class ListOffsetsArgs:
    queries: Sequence[OffsetQuery]
    """One query per partition (the Java client's map has one spec per partition)."""


LIST_OFFSETS = Operation(
    "list_offsets", ListOffsetsArgs, "ListOffsets",
    "one result per partition (``topic:partition``): its error, ``offset`` and ``timestamp`` (-1 where none), and "
    "``leader_epoch`` where the client exposes it",
    lambda topic: tuple(ListOffsetsArgs([OffsetQuery(topic, 0, spec, 0 if spec == "timestamp" else None)])
                        for spec in ("earliest", "latest", "timestamp", "max_timestamp")), java_class="ListOffsets")
