"""The KRaft metadata quorum as the super user sees it, for the probes of the voter methods: the cluster's id
(what AddRaftVoterOptions/RemoveRaftVoterOptions.clusterId is checked against) and the current voters."""

from __future__ import annotations

from typing import Any

from ...operations import perform
from ...operations.describe_metadata_quorum import DESCRIBE_METADATA_QUORUM, DescribeMetadataQuorumArgs
from ...protocol import METADATA, client_versions, metadata_request, pick_version
from ..probe import ProbeContext

DESCRIBE_QUORUM = 55
MISMATCHED_CLUSTER_ID = "kcompat-not-this-cluster"
"""A cluster id no cluster has (a real one is 22 characters of base64)."""


def cluster_id(ctx: ProbeContext) -> str:
    """The cluster id from the first broker's Metadata (v2+ carries it; every KRaft broker has v12+)."""
    conn, offered = ctx.admin.connection()
    version = min(max(2, pick_version(METADATA, offered)), client_versions(METADATA)[-1])
    response: Any = conn.send(metadata_request(version, ()))
    return str(response.cluster_id)


def cluster_id_option(ctx: ProbeContext, which: str) -> str | None:
    """The clusterId option a probe passes: `none` (not checked), `actual` (this cluster's), `mismatch`."""
    return {"none": None, "mismatch": MISMATCHED_CLUSTER_ID}.get(which) if which != "actual" else cluster_id(ctx)


def voters(ctx: ProbeContext) -> list[int] | None:
    """The quorum's voter ids in the super user's DescribeQuorum; None where the broker has none or it errs."""
    if DESCRIBE_QUORUM not in {r.api_key for r in ctx.cluster.api_versions}:
        return None
    described = perform(ctx.admin, DESCRIBE_METADATA_QUORUM, DescribeMetadataQuorumArgs())
    outcome = described.resources[0] if described.resources else None
    if outcome is None or outcome.error_code != 0:
        return None
    found: list[int] = outcome.fields.get("voters", [])
    return found


__all__ = ["MISMATCHED_CLUSTER_ID", "cluster_id", "cluster_id_option", "voters"]
