"""describeMetadataQuorum (KIP-836): the KRaft metadata quorum's leader, voters and observers."""

from __future__ import annotations

from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeMetadataQuorumArgs:
    """describeMetadataQuorum takes no arguments (its options only set the timeout)."""


DESCRIBE_METADATA_QUORUM = Operation(
    "describe_metadata_quorum", DescribeMetadataQuorumArgs, "DescribeQuorum",
    "one result, `__cluster_metadata-0`: its error, `leader_id`, `leader_epoch`, `high_watermark`, `voters` and "
    "`observers` (replica ids)",
    lambda topic: (DescribeMetadataQuorumArgs(),), java_class="DescribeMetadataQuorum")
