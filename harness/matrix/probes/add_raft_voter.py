"""addRaftVoter of a voter nobody runs, with or without the cluster id option: the error, and the voters after."""

from __future__ import annotations

import random
import uuid
from typing import Any

from ...operations.add_raft_voter import ADD_RAFT_VOTER, AddRaftVoterArgs, RaftVoterEndpoint
from ..probe import ProbeContext, ProbeFailed
from ..setups.quorum import cluster_id_option, voters
from . import ProbeSpec, probe
from ._shared import COMMON, common

CLUSTER_IDS = ("none", "actual", "mismatch")


@probe(ProbeSpec("add_raft_voter", COMMON | {"voters_before", "voter_listed"}, {"cluster_id": str},
                 about="addRaftVoter of a new voter id with a random directory id and a controller endpoint nobody "
                       "listens on (127.0.0.1:9), `cluster_id` `none` (default: the option unset), `actual` (the "
                       "cluster's) or `mismatch` (an id no cluster has); `voters_before` are the voter ids of the "
                       "super user's DescribeQuorum before the call (where the broker has it), `voter_listed` whether "
                       "the new id is a voter after it"))
def add_raft_voter(ctx: ProbeContext) -> dict[str, Any]:
    which = str(ctx.args.get("cluster_id", "none"))
    if which not in CLUSTER_IDS:
        raise ProbeFailed(f"add_raft_voter's cluster_id is one of {', '.join(CLUSTER_IDS)}, not {which!r}")
    voter_id = random.randint(1000, 1_000_000)  # no node of the cluster has it
    before = voters(ctx)
    args = AddRaftVoterArgs(voter_id, str(uuid.uuid4()), [RaftVoterEndpoint("CONTROLLER", "127.0.0.1", 9)],
                            cluster_id_option(ctx, which))
    observed, _ = common(ctx.call(ADD_RAFT_VOTER, args))
    if before is not None:
        observed["voters_before"] = before
        after = voters(ctx)
        observed["voter_listed"] = after is not None and voter_id in after
    return observed
