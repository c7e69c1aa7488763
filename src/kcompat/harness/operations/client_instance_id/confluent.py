"""clientInstanceId through confluent-kafka: no release on the axis has AdminClient.client_instance_id, and the
result says so; a release that has it is refused as unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import CLIENT_INSTANCE_ID, ClientInstanceIdArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.shared import lacks


@CLIENT_INSTANCE_ID.implement(ConfluentClient)
def client_instance_id(client: ConfluentClient, args: ClientInstanceIdArgs, version: int | None) -> AdminResult:
    missing = lacks(client, "client_instance_id", "client_instance_id")
    if missing is None:
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.client_instance_id, which "
                               "kcompat does not drive yet")
    return missing
