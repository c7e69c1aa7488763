"""describeProducers through confluent-kafka: no release on the axis (2.0 to 2.16) has AdminClient.describe_producers, and the
result says so; a release that has it is refused as unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import DESCRIBE_PRODUCERS, DescribeProducersArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@DESCRIBE_PRODUCERS.implement(ConfluentClient)
def describe_producers(client: ConfluentClient, args: DescribeProducersArgs, version: int | None) -> AdminResult:
    if hasattr(client.library, "describe_producers"):
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.describe_producers, which kcompat does "
                               "not drive yet")
    return AdminResult("describe_producers", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.describe_producers",
                       librdkafka_version=client.librdkafka_version)
