"""addRaftVoter through confluent-kafka: no release on the axis has AdminClient.add_raft_voter, and the result says so; a
release that has it is refused as unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import ADD_RAFT_VOTER, AddRaftVoterArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.shared import lacks


@ADD_RAFT_VOTER.implement(ConfluentClient)
def add_raft_voter(client: ConfluentClient, args: AddRaftVoterArgs, version: int | None) -> AdminResult:
    missing = lacks(client, "add_raft_voter", "add_raft_voter")
    if missing is None:
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.add_raft_voter, which kcompat does not "
                               "drive yet")
    return missing
