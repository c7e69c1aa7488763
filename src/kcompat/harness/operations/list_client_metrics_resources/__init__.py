"""listClientMetricsResources (KIP-714): the names of the client metrics subscriptions the cluster has."""

from __future__ import annotations

from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class ListClientMetricsResourcesArgs:
    """listClientMetricsResources takes no arguments (its options only set the timeout)."""


LIST_CLIENT_METRICS_RESOURCES = Operation(
    "list_client_metrics_resources", ListClientMetricsResourcesArgs, "ListClientMetricsResources",
    "one result per listed resource name; the response's error as a result named `cluster`",
    lambda topic: (ListClientMetricsResourcesArgs(),), java_class="ListClientMetricsResources")
