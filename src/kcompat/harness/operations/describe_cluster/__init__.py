"""Describe the cluster: its nodes, controller and cluster id, and (KIP-430) the operations the caller may do on
it.  Metadata is the API every client and broker share for it (kafka-clients 2.8+ sends DescribeCluster to
brokers that have it, and falls back to Metadata)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeClusterArgs:
    include_authorized_operations: bool = False


DESCRIBE_CLUSTER = Operation(
    "describe_cluster", DescribeClusterArgs, "Metadata",
    "one result, ``cluster``, with ``nodes`` (ids), ``controller`` (id or None), ``cluster_id`` and, where the "
    "client exposes them, ``authorized_operations`` (sorted names, None when the broker supplied none)",
    lambda topic: (DescribeClusterArgs(), DescribeClusterArgs(True)), java_class="DescribeCluster")
