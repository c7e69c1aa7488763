"""Describe the cluster through the wire client: Metadata with no topics.

The cluster's authorized operations (KIP-430) are in Metadata v8-v10 only (v11
moved them to DescribeCluster): asked for them, an unpinned client sends the
newest of those the broker has; a version without them sends nothing and says
so, as kafka-clients 3.x refuses to write the flag below v8.
"""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_CLUSTER, DescribeClusterArgs
from ...protocol import METADATA, build_request, pick_version
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed
from ...clients.kinds.wire.shared import nothing_sent

AUTHORIZED_OPERATIONS = range(8, 11)
"""The Metadata versions that carry the cluster's authorized operations."""
ACL_OPERATIONS = ("UNKNOWN", "ANY", "ALL", "READ", "WRITE", "CREATE", "DELETE", "ALTER", "DESCRIBE",
                  "CLUSTER_ACTION", "DESCRIBE_CONFIGS", "ALTER_CONFIGS", "IDEMPOTENT_WRITE", "CREATE_TOKENS",
                  "DESCRIBE_TOKENS")
"""Kafka's AclOperation by code: bit ``code`` of an authorized-operations field."""
NOT_SUPPLIED = -2147483648
"""The authorized-operations value of a broker that was not asked for them (or can't say)."""


def operation_names(bits: int) -> list[str] | None:
    """An authorized-operations bit field as sorted AclOperation names; None when the broker supplied none."""
    if bits == NOT_SUPPLIED:
        return None
    return sorted(ACL_OPERATIONS[code] if code < len(ACL_OPERATIONS) else f"UNKNOWN_{code}"
                  for code in range(32) if bits & (1 << code))


@DESCRIBE_CLUSTER.implement(WireClient)
@observed
def describe_cluster(client: WireClient, args: DescribeClusterArgs, version: int | None) -> AdminResult:
    chosen = version
    if chosen is None:
        chosen = max(1, pick_version(METADATA, client.api_versions()))
        if args.include_authorized_operations and chosen > AUTHORIZED_OPERATIONS[-1]:
            chosen = AUTHORIZED_OPERATIONS[-1]
    asked = args.include_authorized_operations
    if asked and chosen not in AUTHORIZED_OPERATIONS:
        return nothing_sent(client, "describe_cluster", f"Metadata v{chosen} can't ask for the cluster's authorized "
                            "operations", ("include_authorized_operations",))

    def build(v: int, options: dict[str, bool]) -> Any:
        return build_request(METADATA, v, topics=(), allow_auto_topic_creation=False,
                             include_cluster_authorized_operations=asked, include_topic_authorized_operations=False)

    sent, response, _ = client.send("describe_cluster", METADATA, chosen, build, {})
    fields: dict[str, Any] = {"nodes": sorted(int(b.node_id) for b in response.brokers)}
    if hasattr(response, "controller_id"):
        fields["controller"] = None if int(response.controller_id) < 0 else int(response.controller_id)
    if hasattr(response, "cluster_id"):
        fields["cluster_id"] = response.cluster_id
    if hasattr(response, "cluster_authorized_operations"):
        fields["authorized_operations"] = operation_names(int(response.cluster_authorized_operations))
    return AdminResult("describe_cluster", client.kind, client.version, sent,
                       (ResourceOutcome.of("cluster", 0, None, **fields),), tuple(fields))
