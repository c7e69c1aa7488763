"""The KRaft metadata quorum as the super user sees it, for the probes of the voter methods: the cluster's id
(what AddRaftVoterOptions/RemoveRaftVoterOptions.clusterId is checked against), the current voters and, in a
dynamic quorum (KIP-853, a cluster with ``quorum = "dynamic"``), a follower voter to remove and put back, so a
shared cluster keeps its voters from one cell to the next.  Every wait is bounded by ``SETTLE``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...clients import error_name
from ...operations import perform
from ...operations.add_raft_voter import ADD_RAFT_VOTER, AddRaftVoterArgs, RaftVoterEndpoint
from ...operations.describe_metadata_quorum import DESCRIBE_METADATA_QUORUM, DescribeMetadataQuorumArgs
from ...operations.remove_raft_voter import REMOVE_RAFT_VOTER, RemoveRaftVoterArgs
from ...protocol import METADATA, build_request, client_versions, metadata_request, nested_type, pick_version
from ...waiting import attempts
from ..probe import ProbeContext, ProbeFailed

DESCRIBE_QUORUM = 55
METADATA_TOPIC = "__cluster_metadata"
SETTLE = 30.0
_NO_DIRECTORY = "00000000-0000-0000-0000-000000000000"
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




# -- a dynamic quorum's voters (KIP-853): who they are, and putting one back -----------------------------------

@dataclass(frozen=True)
class Voter:
    """A voter as DescribeQuorum v2 gives it: its id, directory id and controller endpoints."""

    node_id: int
    directory_id: str
    endpoints: tuple[RaftVoterEndpoint, ...]


def quorum_v2(ctx: ProbeContext) -> tuple[int, list[Voter]]:
    """(leader id, voters) from the super user's DescribeQuorum v2 (3.9+); ProbeFailed where the broker can't
    answer it or errs."""
    conn, offered = ctx.admin.connection()
    if DESCRIBE_QUORUM not in offered or offered[DESCRIBE_QUORUM].max_version < 2:
        raise ProbeFailed("set-up: the broker has no DescribeQuorum v2 to name the voters' directory ids")
    topic = nested_type(DESCRIBE_QUORUM, 2, "TopicData", topics=())
    partition = nested_type(DESCRIBE_QUORUM, 2, "PartitionData", topics=())
    response: Any = conn.send(build_request(DESCRIBE_QUORUM, 2, topics=(
        topic(topic_name=METADATA_TOPIC, partitions=(partition(partition_index=0),)),)))
    found = response.topics[0].partitions[0] if response.topics and response.topics[0].partitions else None
    if int(response.error_code) != 0 or found is None or int(found.error_code) != 0:
        raise ProbeFailed(f"set-up: DescribeQuorum v2 as the super user gave {error_name(int(response.error_code))}")
    listeners = {int(n.node_id): tuple(RaftVoterEndpoint(str(e.name), str(e.host), int(e.port)) for e in n.listeners)
                 for n in response.nodes}
    return int(found.leader_id), [Voter(int(v.replica_id), str(v.replica_directory_id or _NO_DIRECTORY),
                                        listeners.get(int(v.replica_id), ())) for v in found.current_voters]


def follower_voter(ctx: ProbeContext) -> Voter:
    """Set-up: a voter that is not the leader, of a dynamic quorum (one whose voters have directory ids)."""
    leader, found = quorum_v2(ctx)
    if any(v.directory_id == _NO_DIRECTORY for v in found):
        raise ProbeFailed("set-up: the quorum is static (kraft.version 0: no voter has a directory id); the claim "
                          "needs cluster.quorum = \"dynamic\"")
    follower = next((v for v in sorted(found, key=lambda v: -v.node_id) if v.node_id != leader), None)
    if follower is None or not follower.endpoints:
        raise ProbeFailed(f"set-up: no follower voter with endpoints among {found} (leader {leader}); the claim "
                          "needs cluster.nodes = 3")
    return follower


def await_voter(ctx: ProbeContext, node_id: int, *, present: bool) -> bool:
    """Whether ``node_id`` is (or is no longer) a voter in the super user's DescribeQuorum, awaited (bounded):
    a change is a record the quorum commits after answering."""
    for _ in attempts(SETTLE, interval=0.2):
        if (node_id in (voters(ctx) or [])) is present:
            return True
    return False


def change_as_admin(ctx: ProbeContext, voter: Voter, *, add: bool) -> None:
    """Set-up: the super user adds ``voter`` back (or removes it) and waits until the quorum shows it, retrying
    while the quorum still commits an earlier change; ProbeFailed when it can't."""
    error = "no attempt"
    for _ in attempts(SETTLE, interval=0.5):
        if add:
            result = perform(ctx.admin, ADD_RAFT_VOTER, AddRaftVoterArgs(voter.node_id, voter.directory_id,
                                                                        voter.endpoints))
        else:
            result = perform(ctx.admin, REMOVE_RAFT_VOTER, RemoveRaftVoterArgs(voter.node_id, voter.directory_id))
        error = result.exception or (result.resources[0].error_name if result.resources else "no result")
        if error == "NONE" and await_voter(ctx, voter.node_id, present=add):
            return
    raise ProbeFailed(f"set-up: {'adding' if add else 'removing'} voter {voter.node_id} as the super user gave "
                      f"{error}")


__all__ = ["MISMATCHED_CLUSTER_ID", "Voter", "await_voter", "change_as_admin", "cluster_id", "cluster_id_option",
           "follower_voter", "voters"]
