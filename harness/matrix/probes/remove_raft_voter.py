"""removeRaftVoter of an id that is no voter, with or without the cluster id option: the error, and the voters."""

from __future__ import annotations

import random
import uuid
from typing import Any

from ...operations.remove_raft_voter import REMOVE_RAFT_VOTER, RemoveRaftVoterArgs
from ..probe import ProbeContext, ProbeFailed
from ..setups.quorum import cluster_id_option, voters
from . import ProbeSpec, probe
from ._shared import COMMON, common
from .add_raft_voter import CLUSTER_IDS


@probe(ProbeSpec("remove_raft_voter", COMMON | {"voters_before", "voters_kept"}, {"cluster_id": str},
                 about="removeRaftVoter of an id that is no voter (a random one, with a random directory id), "
                       "`cluster_id` `none` (default: the option unset), `actual` (the cluster's) or `mismatch` (an "
                       "id no cluster has); `voters_before` are the voter ids of the super user's DescribeQuorum "
                       "before the call (where the broker has it), `voters_kept` whether they are the same after it"))
def remove_raft_voter(ctx: ProbeContext) -> dict[str, Any]:
    which = str(ctx.args.get("cluster_id", "none"))
    if which not in CLUSTER_IDS:
        raise ProbeFailed(f"remove_raft_voter's cluster_id is one of {', '.join(CLUSTER_IDS)}, not {which!r}")
    voter_id = random.randint(1000, 1_000_000)  # no node of the cluster has it
    before = voters(ctx)
    args = RemoveRaftVoterArgs(voter_id, str(uuid.uuid4()), cluster_id_option(ctx, which))
    observed, _ = common(ctx.call(REMOVE_RAFT_VOTER, args))
    if before is not None:
        observed["voters_before"] = before
        observed["voters_kept"] = voters(ctx) == before
    return observed
