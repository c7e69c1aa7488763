"""describeMetadataQuorum: the KRaft quorum's leader and voters (a ZooKeeper cluster has none to describe)."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_METADATA_QUORUM, DescribeMetadataQuorumArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common


@probe(ProbeSpec("describe_metadata_quorum", COMMON | {"leader_id", "leader_is_voter", "voters", "observers",
                                                        "high_watermark"},
                 {},
                 about="describeMetadataQuorum: the leader's id, the voters' and observers' ids (sorted), the high "
                       "watermark, and `leader_is_voter`"))
def describe_metadata_quorum(ctx: ProbeContext) -> dict[str, Any]:
    observed, outcome = common(ctx.call(DESCRIBE_METADATA_QUORUM, DescribeMetadataQuorumArgs()))
    if outcome is None or outcome.error_code != 0:
        return observed
    for key in ("leader_id", "voters", "observers", "high_watermark"):
        if key in outcome.fields:
            observed[key] = outcome.fields[key]
    if "leader_id" in outcome.fields and "voters" in outcome.fields:
        observed["leader_is_voter"] = outcome.fields["leader_id"] in outcome.fields["voters"]
    return observed
