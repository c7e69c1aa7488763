"""CreatePartitions (KIP-195): more partitions for existing topics, or only validated."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...clients.base import NewPartitions
from .. import Operation


@dataclass(frozen=True)
class CreatePartitionsArgs:
    partitions: Sequence[NewPartitions]
    validate_only: bool = False
    broker: tuple[str, int] | None = None
    """Sent to this broker instead of the controller, by a client that chooses its broker
    (``ClientKind.chooses_broker``), to observe what another broker answers."""


CREATE_PARTITIONS = Operation(
    "create_partitions", CreatePartitionsArgs, "CreatePartitions", "one result per topic: its error",
    lambda topic: (CreatePartitionsArgs([NewPartitions(topic, 2)], True),), java_class="CreatePartitions")
