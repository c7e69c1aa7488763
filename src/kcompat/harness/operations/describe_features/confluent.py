"""describeFeatures through confluent-kafka: no release on the axis (2.0 to 2.16) has AdminClient.describe_features, and the
result says so; a release that has it is refused as unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import DESCRIBE_FEATURES, DescribeFeaturesArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@DESCRIBE_FEATURES.implement(ConfluentClient)
def describe_features(client: ConfluentClient, args: DescribeFeaturesArgs, version: int | None) -> AdminResult:
    if hasattr(client.library, "describe_features"):
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.describe_features, which kcompat does "
                               "not drive yet")
    return AdminResult("describe_features", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.describe_features",
                       librdkafka_version=client.librdkafka_version)
