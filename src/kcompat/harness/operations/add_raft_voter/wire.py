"""addRaftVoter through the wire client: AddRaftVoter to the first broker, which forwards it to the controller
(kafka-clients sends it to any broker, or to a controller it bootstraps from)."""

from __future__ import annotations

import uuid
from typing import Any


from . import ADD_RAFT_VOTER, AddRaftVoterArgs
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

ADD_RAFT_VOTER_KEY = 80
TIMEOUT = 30_000
"""Milliseconds the broker may take."""


@ADD_RAFT_VOTER.implement(WireClient)
@observed
def add_raft_voter(client: WireClient, args: AddRaftVoterArgs, version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        empty = {"cluster_id": None, "timeout": TIMEOUT, "voter_id": 0, "voter_directory_id": None, "listeners": ()}
        listener = nested_type(ADD_RAFT_VOTER_KEY, v, "Listener", **empty)
        return build_request(ADD_RAFT_VOTER_KEY, v, **{
            **empty, "cluster_id": args.cluster_id, "voter_id": args.voter_id,
            "voter_directory_id": uuid.UUID(args.voter_directory_id),
            "listeners": tuple(listener(name=e.name, host=e.host, port=e.port) for e in args.endpoints)})

    sent, response, _ = client.send("add_raft_voter", ADD_RAFT_VOTER_KEY, version, build, {})
    return AdminResult("add_raft_voter", client.kind, client.version, sent, (
        ResourceOutcome.of(f"voter:{args.voter_id}", int(response.error_code), response.error_message),))
