"""fenceProducers (KIP-618): a new epoch for each transactional id, fencing the producers that use it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class FenceProducersArgs:
    transactional_ids: Sequence[str]


FENCE_PRODUCERS = Operation(
    "fence_producers", FenceProducersArgs, "InitProducerId",
    "one result per transactional id: its error, the `producer_id` and the new `producer_epoch`",
    lambda topic: (FenceProducersArgs([f"{topic}-txn"]),), java_class="FenceProducers")
