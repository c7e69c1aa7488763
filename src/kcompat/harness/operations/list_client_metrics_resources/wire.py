"""listClientMetricsResources through the wire client: ListClientMetricsResources to the first broker (any broker
answers it, KIP-714)."""

from __future__ import annotations

from typing import Any

from . import (
    LIST_CLIENT_METRICS_RESOURCES,
    ListClientMetricsResourcesArgs,
)
from ...protocol import build_request
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

LIST_CLIENT_METRICS_RESOURCES_KEY = 74


@LIST_CLIENT_METRICS_RESOURCES.implement(WireClient)
@observed
def list_client_metrics_resources(client: WireClient, args: ListClientMetricsResourcesArgs, version: int | None
                                  ) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        return build_request(LIST_CLIENT_METRICS_RESOURCES_KEY, v)

    sent, response, _ = client.send("list_client_metrics_resources", LIST_CLIENT_METRICS_RESOURCES_KEY, version,
                                     build, {})
    if int(response.error_code) != 0:
        outcomes: tuple[ResourceOutcome, ...] = (ResourceOutcome.of("cluster", int(response.error_code)),)
    else:
        # the definitions name v0's list ConfigResources (key 74 became ListConfigResources in Kafka 4.1)
        outcomes = tuple(ResourceOutcome.of(str(r.resource_name), 0) for r in response.config_resources)
    return AdminResult("list_client_metrics_resources", client.kind, client.version, sent, outcomes)
