"""removeRaftVoter (KIP-853, kafka-clients 3.9+): a voter leaves the KRaft metadata quorum, by id and directory
id; optionally only if the cluster id is the one given."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class RemoveRaftVoterArgs:
    voter_id: int
    voter_directory_id: str
    """A UUID's usual text."""
    cluster_id: str | None = None
    """RemoveRaftVoterOptions.clusterId: the call succeeds only on the cluster with this id; None: not checked."""


REMOVE_RAFT_VOTER = Operation(
    "remove_raft_voter", RemoveRaftVoterArgs, "RemoveRaftVoter", "one result, named `voter:<id>`: its error",
    lambda topic: (RemoveRaftVoterArgs(999, str(uuid.uuid5(uuid.NAMESPACE_URL, topic))),),
    java_class="RemoveRaftVoter")
