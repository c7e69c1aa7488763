"""List groups of every type (KIP-1043's Admin.listGroups, kafka-clients 4.0+): ListGroups to every broker;
``types`` filters by group type (ListGroups v5+, KIP-848), ``states`` by group state (ListGroups v4+, KIP-518)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class ListGroupsArgs:
    types: Sequence[str] = ()
    """Group types, lower case (``classic``, ``consumer``, ``share``, ``streams``); none: every type."""
    states: Sequence[str] = ()
    """Group states, as Kafka names them (``Empty``, ``Stable``); none: every state."""


LIST_GROUPS = Operation(
    "list_groups", ListGroupsArgs, "ListGroups",
    "one result per group listed (its id), with its ``type`` (lower case), ``protocol_type`` and ``state`` "
    "where the client and request version carry them",
    lambda topic: (ListGroupsArgs(), ListGroupsArgs(("classic",))), java_class="ListGroups")
