"""describeMetadataQuorum through confluent-kafka: no release on the axis (2.0 to 2.16) has AdminClient.describe_metadata_quorum, and the
result says so; a release that has it is refused as unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import DESCRIBE_METADATA_QUORUM, DescribeMetadataQuorumArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@DESCRIBE_METADATA_QUORUM.implement(ConfluentClient)
def describe_metadata_quorum(client: ConfluentClient, args: DescribeMetadataQuorumArgs, version: int | None) -> AdminResult:
    if hasattr(client.library, "describe_metadata_quorum"):
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.describe_metadata_quorum, which kcompat does "
                               "not drive yet")
    return AdminResult("describe_metadata_quorum", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.describe_metadata_quorum",
                       librdkafka_version=client.librdkafka_version)
