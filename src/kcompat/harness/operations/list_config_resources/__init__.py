"""listConfigResources (KIP-1142, kafka-clients 4.1+): the config resources of the given types the cluster has.
Its API is ListClientMetricsResources renamed (key 74, kio's name): v0 lists client metrics subscriptions only,
v1 any type (none: every type)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation

CONFIG_RESOURCE_TYPES = {"TOPIC": 2, "BROKER": 4, "BROKER_LOGGER": 8, "CLIENT_METRICS": 16, "GROUP": 32}
"""ConfigResource.Type by name: its id on the wire (the resource types a listing may ask for)."""


@dataclass(frozen=True)
class ListConfigResourcesArgs:
    resource_types: Sequence[str] = ()
    """ConfigResource.Type names (``TOPIC``, ``CLIENT_METRICS``, ...); none: every type."""


LIST_CONFIG_RESOURCES = Operation(
    "list_config_resources", ListConfigResourcesArgs, "ListClientMetricsResources",
    "one result per listed resource, named `TYPE:name`; the response's error as a result named `cluster`",
    lambda topic: (ListConfigResourcesArgs(), ListConfigResourcesArgs(["CLIENT_METRICS"])),
    java_class="ListConfigResources")
