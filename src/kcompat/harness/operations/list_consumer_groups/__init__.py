"""List consumer groups (ListGroups to every broker); ``states`` filters by state (KIP-518, ListGroups v4+)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class ListConsumerGroupsArgs:
    states: Sequence[str] = ()
    """Kafka's state names (``Empty``, ``Stable``...); none: every group whatever its state."""


LIST_CONSUMER_GROUPS = Operation(
    "list_consumer_groups", ListConsumerGroupsArgs, "ListGroups",
    "one result per group listed (its id), with its ``state`` where the client and request version carry it; "
    "an error of the listing as a whole is the exception (or a ``broker:<address>`` result for the wire client)",
    lambda topic: (ListConsumerGroupsArgs(), ListConsumerGroupsArgs(("Stable",))), java_class="ListConsumerGroups")
