"""removeRaftVoter through the wire client: RemoveRaftVoter to the first broker, which forwards it to the
controller (kafka-clients sends it to any broker, or to a controller it bootstraps from)."""

from __future__ import annotations

import uuid
from typing import Any

from . import REMOVE_RAFT_VOTER, RemoveRaftVoterArgs
from ...protocol import build_request
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

REMOVE_RAFT_VOTER_KEY = 81


@REMOVE_RAFT_VOTER.implement(WireClient)
@observed
def remove_raft_voter(client: WireClient, args: RemoveRaftVoterArgs, version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        return build_request(REMOVE_RAFT_VOTER_KEY, v, cluster_id=args.cluster_id, voter_id=args.voter_id,
                             voter_directory_id=uuid.UUID(args.voter_directory_id))

    sent, response, _ = client.send("remove_raft_voter", REMOVE_RAFT_VOTER_KEY, version, build, {})
    return AdminResult("remove_raft_voter", client.kind, client.version, sent, (
        ResourceOutcome.of(f"voter:{args.voter_id}", int(response.error_code), response.error_message),))
