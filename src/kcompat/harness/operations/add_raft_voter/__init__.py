"""addRaftVoter (KIP-853, kafka-clients 3.9+): a new voter of the KRaft metadata quorum, by id, directory id and
endpoints; optionally only if the cluster id is the one given."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class RaftVoterEndpoint:
    name: str
    host: str
    port: int


@dataclass(frozen=True)
class AddRaftVoterArgs:
    voter_id: int
    voter_directory_id: str
    """A UUID's usual text."""
    endpoints: Sequence[RaftVoterEndpoint]
    cluster_id: str | None = None
    """AddRaftVoterOptions.clusterId: the call succeeds only on the cluster with this id; None: not checked."""


ADD_RAFT_VOTER = Operation(
    "add_raft_voter", AddRaftVoterArgs, "AddRaftVoter", "one result, named `voter:<id>`: its error",
    lambda topic: (AddRaftVoterArgs(999, str(uuid.uuid5(uuid.NAMESPACE_URL, topic)),
                                    [RaftVoterEndpoint("CONTROLLER", "127.0.0.1", 9)]),), java_class="AddRaftVoter")
