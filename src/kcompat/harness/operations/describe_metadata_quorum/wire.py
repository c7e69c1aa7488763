"""describeMetadataQuorum through the wire client: DescribeQuorum of ``__cluster_metadata``'s one partition."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_METADATA_QUORUM, DescribeMetadataQuorumArgs
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

DESCRIBE_QUORUM = 55
METADATA_TOPIC = "__cluster_metadata"
FIELDS = ("leader_id", "leader_epoch", "high_watermark", "voters", "observers")


@DESCRIBE_METADATA_QUORUM.implement(WireClient)
@observed
def describe_metadata_quorum(client: WireClient, args: DescribeMetadataQuorumArgs, version: int | None
                             ) -> AdminResult:
    """The response's own error where it has one (v2: with a message), else the partition's."""
    def build(v: int, options: dict[str, bool]) -> Any:
        topic = nested_type(DESCRIBE_QUORUM, v, "TopicData", topics=())
        partition = nested_type(DESCRIBE_QUORUM, v, "PartitionData", topics=())
        return build_request(DESCRIBE_QUORUM, v, topics=(topic(topic_name=METADATA_TOPIC,
                                                              partitions=(partition(partition_index=0),)),))

    sent, response, _ = client.send("describe_metadata_quorum", DESCRIBE_QUORUM, version, build, {})
    resource = f"{METADATA_TOPIC}-0"
    if int(response.error_code) != 0 or not response.topics:
        outcome = ResourceOutcome.of(resource, int(response.error_code), getattr(response, "error_message", None))
    else:
        p = response.topics[0].partitions[0]
        outcome = ResourceOutcome.of(resource, int(p.error_code), getattr(p, "error_message", None),
                                     leader_id=int(p.leader_id), leader_epoch=int(p.leader_epoch),
                                     high_watermark=int(p.high_watermark),
                                     voters=sorted(int(r.replica_id) for r in p.current_voters),
                                     observers=sorted(int(r.replica_id) for r in p.observers))
    return AdminResult("describe_metadata_quorum", client.kind, client.version, sent, (outcome,), FIELDS)
