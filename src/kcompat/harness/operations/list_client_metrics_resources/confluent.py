"""listClientMetricsResources through confluent-kafka: no release on the axis (2.0 to 2.16) has AdminClient.list_client_metrics_resources,
and the result says so; a release that has it is refused as unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import LIST_CLIENT_METRICS_RESOURCES, ListClientMetricsResourcesArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@LIST_CLIENT_METRICS_RESOURCES.implement(ConfluentClient)
def list_client_metrics_resources(client: ConfluentClient, args: ListClientMetricsResourcesArgs, version: int | None) -> AdminResult:
    if hasattr(client.library, "list_client_metrics_resources"):
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.list_client_metrics_resources, which kcompat "
                               "does not drive yet")
    return AdminResult("list_client_metrics_resources", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.list_client_metrics_resources",
                       librdkafka_version=client.librdkafka_version)
