"""listConfigResources through the wire client: ListConfigResources (key 74, ListClientMetricsResources before
Kafka 4.1) to the first broker.  Version 0 has no resource types and lists client metrics subscriptions only, so
as kafka-clients does, a listing of other (or all) types is not sent at v0."""

from __future__ import annotations

from typing import Any

from . import (
    CONFIG_RESOURCE_TYPES,
    LIST_CONFIG_RESOURCES,
    ListConfigResourcesArgs,
)
from ...protocol import build_request, client_versions, pick_version, request_fields
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed
from ...clients.kinds.wire.shared import nothing_sent

LIST_CONFIG_RESOURCES_KEY = 74
_TYPE_NAMES = {v: k for k, v in CONFIG_RESOURCE_TYPES.items()}


def v0_can_list(resource_types: tuple[str, ...]) -> bool:
    """Whether version 0 (no ResourceTypes field: client metrics only) expresses the listing asked for."""
    return set(resource_types) == {"CLIENT_METRICS"}


@LIST_CONFIG_RESOURCES.implement(WireClient)
@observed
def list_config_resources(client: WireClient, args: ListConfigResourcesArgs, version: int | None) -> AdminResult:
    types = tuple(args.resource_types)
    offered = client.api_versions()
    if version is None and LIST_CONFIG_RESOURCES_KEY in offered:
        version = pick_version(LIST_CONFIG_RESOURCES_KEY, offered)
    if version is not None and version not in client_versions(LIST_CONFIG_RESOURCES_KEY):
        return nothing_sent(client, "list_config_resources", f"no catalog release defines ListClientMetricsResources "
                                                               f"v{version}", ("resource_types",) if types else ())
    typed = version is not None and "resource_types" in request_fields(LIST_CONFIG_RESOURCES_KEY, version)
    if version is not None and not typed and not v0_can_list(types):
        return nothing_sent(client, "list_config_resources",
                            f"ListClientMetricsResources v{version} lists client metrics only, not "
                            f"{', '.join(types) or 'every type'}", ("resource_types",))

    def build(v: int, options: dict[str, bool]) -> Any:
        if typed:
            return build_request(LIST_CONFIG_RESOURCES_KEY, v,
                                 resource_types=tuple(CONFIG_RESOURCE_TYPES[t] for t in types))
        return build_request(LIST_CONFIG_RESOURCES_KEY, v)

    sent, response, _ = client.send("list_config_resources", LIST_CONFIG_RESOURCES_KEY, version, build, {})
    if int(response.error_code) != 0:
        return AdminResult("list_config_resources", client.kind, client.version, sent,
                           (ResourceOutcome.of("cluster", int(response.error_code)),))
    # v0's entries are client metrics subscriptions, named only; v1 (ConfigResources) gives each one's type
    outcomes = tuple(ResourceOutcome.of(f"{_TYPE_NAMES.get(int(getattr(r, 'resource_type', 16)), 'UNKNOWN')}:"
                                        f"{r.resource_name}", 0) for r in response.config_resources)
    return AdminResult("list_config_resources", client.kind, client.version, sent, outcomes)
