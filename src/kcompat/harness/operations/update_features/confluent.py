"""updateFeatures through confluent-kafka: no release on the axis (2.0 to 2.16) has AdminClient.update_features,
and the result says so; a release that has it is refused as unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import UPDATE_FEATURES, UpdateFeaturesArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@UPDATE_FEATURES.implement(ConfluentClient)
def update_features(client: ConfluentClient, args: UpdateFeaturesArgs, version: int | None) -> AdminResult:
    if hasattr(client.library, "update_features"):
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.update_features, which kcompat "
                               "does not drive yet")
    return AdminResult("update_features", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.update_features",
                       librdkafka_version=client.librdkafka_version)
