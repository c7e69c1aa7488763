"""removeRaftVoter of an id that is no voter, or of a follower voter of a dynamic quorum (put back afterwards):
the error, and the voters after."""

from __future__ import annotations

import random
import uuid
from typing import Any

from . import REMOVE_RAFT_VOTER, RemoveRaftVoterArgs
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.setups.quorum import await_voter, change_as_admin, cluster_id_option, follower_voter, voters
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common
from ..add_raft_voter.probe import cluster_id_arg

REMOVE_RAFT_VOTER_KEY = 81


@probe(ProbeSpec("remove_raft_voter", COMMON | {"voters_before", "voters_kept", "voter_removed"},
                 {"cluster_id": str, "target": str},
                 about="removeRaftVoter, `target` `unknown` (default: a random id that is no voter, with a random "
                       "directory id) or `voter` (a follower voter of a dynamic quorum, with its directory id; the "
                       "super user puts it back afterwards), `cluster_id` `none` (default: the option unset), "
                       "`actual` (the cluster's) or `mismatch` (an id no cluster has); `voters_before` are the voter "
                       "ids of the super user's DescribeQuorum before the call (where the broker has it), "
                       "`voters_kept` whether they are the same after it, `voter_removed` (target `voter`) whether "
                       "the voter left them (awaited)"))
def remove_raft_voter(ctx: ProbeContext) -> dict[str, Any]:
    which, target = cluster_id_arg(ctx), str(ctx.args.get("target", "unknown"))
    if target not in ("unknown", "voter"):
        raise ProbeFailed(f"remove_raft_voter's target is unknown or voter, not {target!r}")
    args = RemoveRaftVoterArgs(random.randint(1000, 1_000_000), str(uuid.uuid4()), cluster_id_option(ctx, which))
    chosen = None
    if target == "voter" and REMOVE_RAFT_VOTER_KEY in {r.api_key for r in ctx.cluster.api_versions}:
        chosen = follower_voter(ctx)
        args = RemoveRaftVoterArgs(chosen.node_id, chosen.directory_id, args.cluster_id)
    before = voters(ctx)
    observed, _ = common(ctx.call(REMOVE_RAFT_VOTER, args))
    if before is not None:
        observed["voters_before"] = before
        if chosen is not None:
            observed["voter_removed"] = (observed.get("error") == "NONE"
                                         and await_voter(ctx, chosen.node_id, present=False))
        observed["voters_kept"] = voters(ctx) == before
    if chosen is not None and observed.get("voter_removed"):
        change_as_admin(ctx, chosen, add=True)  # the shared cluster keeps its voters
    return observed
