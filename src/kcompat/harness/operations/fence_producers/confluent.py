"""fenceProducers through confluent-kafka: no release on the axis (2.0 to 2.16) has AdminClient.fence_producers, and the
result says so; a release that has it is refused as unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import FENCE_PRODUCERS, FenceProducersArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@FENCE_PRODUCERS.implement(ConfluentClient)
def fence_producers(client: ConfluentClient, args: FenceProducersArgs, version: int | None) -> AdminResult:
    if hasattr(client.library, "fence_producers"):
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.fence_producers, which kcompat does "
                               "not drive yet")
    return AdminResult("fence_producers", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.fence_producers",
                       librdkafka_version=client.librdkafka_version)
