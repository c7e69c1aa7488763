"""listConfigResources through confluent-kafka: no release on the axis has AdminClient.list_config_resources,
and the result says so; a release that has it is refused as unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import LIST_CONFIG_RESOURCES, ListConfigResourcesArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.shared import lacks


@LIST_CONFIG_RESOURCES.implement(ConfluentClient)
def list_config_resources(client: ConfluentClient, args: ListConfigResourcesArgs, version: int | None) -> AdminResult:
    missing = lacks(client, "list_config_resources", "list_config_resources")
    if missing is None:
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.list_config_resources, which "
                               "kcompat does not drive yet")
    return missing
