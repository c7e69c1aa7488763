"""unregisterBroker through confluent-kafka: no release on the axis has AdminClient.unregister_broker, and the
result says so; a release that has it is refused as unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import UNREGISTER_BROKER, UnregisterBrokerArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.shared import lacks


@UNREGISTER_BROKER.implement(ConfluentClient)
def unregister_broker(client: ConfluentClient, args: UnregisterBrokerArgs, version: int | None) -> AdminResult:
    missing = lacks(client, "unregister_broker", "unregister_broker")
    if missing is None:
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.unregister_broker, which kcompat "
                               "does not drive yet")
    return missing
