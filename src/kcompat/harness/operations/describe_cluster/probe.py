"""describeCluster as the cell's client, against what the cluster is (its brokers, the super user's Metadata)."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_CLUSTER, DescribeClusterArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common, metadata


@probe(ProbeSpec("describe_cluster", COMMON | {"nodes_match", "controller_known", "cluster_id_matches",
                                               "authorized_operations"},
                 {"include_authorized_operations": bool, "as_user": str},
                 about="describeCluster: `nodes_match` is whether the nodes are the cluster's brokers, "
                       "`controller_known` whether the controller is one of them, `cluster_id_matches` whether the "
                       "cluster id is the one Metadata v2+ gives the super user (absent where either has none); "
                       "`authorized_operations` as the client returns them (sorted names, null when the broker "
                       "supplied none; absent where the client has no such result)",
                 reads=(("cluster_id_matches", "cluster_id"),)))
def describe_cluster(ctx: ProbeContext) -> dict[str, Any]:
    """describeCluster once; its nodes, controller and cluster id compared with the cluster's own."""
    asked = bool(ctx.args.get("include_authorized_operations", False))
    observed, outcome = common(ctx.call(DESCRIBE_CLUSTER, DescribeClusterArgs(asked)))
    if outcome is None or outcome.error_code != 0:
        return observed
    fields = outcome.fields
    brokers = sorted(b.node_id for b in ctx.cluster.brokers)
    observed["nodes_match"] = fields.get("nodes") == brokers
    observed["controller_known"] = fields.get("controller") in brokers
    response, _ = metadata(ctx)
    theirs = getattr(response, "cluster_id", None)
    if fields.get("cluster_id") is not None and theirs is not None:
        observed["cluster_id_matches"] = fields["cluster_id"] == theirs
    if "authorized_operations" in fields:
        observed["authorized_operations"] = fields["authorized_operations"]
    return observed
