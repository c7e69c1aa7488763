"""addRaftVoter of a voter nobody runs, or of a follower the super user removed first (a dynamic quorum): the
error, and whether the voter is then in the quorum."""

from __future__ import annotations

import random
import uuid
from typing import Any

from . import ADD_RAFT_VOTER, AddRaftVoterArgs, RaftVoterEndpoint
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.setups.quorum import await_voter, change_as_admin, cluster_id_option, follower_voter, voters
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common

CLUSTER_IDS = ("none", "actual", "mismatch")
ADD_RAFT_VOTER_KEY = 80


def cluster_id_arg(ctx: ProbeContext) -> str:
    which = str(ctx.args.get("cluster_id", "none"))
    if which not in CLUSTER_IDS:
        raise ProbeFailed(f"the voter probes' cluster_id is one of {', '.join(CLUSTER_IDS)}, not {which!r}")
    return which


@probe(ProbeSpec("add_raft_voter", COMMON | {"voters_before", "voter_listed"}, {"cluster_id": str, "target": str},
                 about="addRaftVoter, `target` `new` (default: a new voter id with a random directory id and a "
                       "controller endpoint nobody listens on, 127.0.0.1:9) or `removed` (a follower voter of a "
                       "dynamic quorum that the super user removed first, with its directory id and endpoints; put "
                       "back by the super user if the call did not), `cluster_id` `none` (default: the option "
                       "unset), `actual` (the cluster's) or `mismatch` (an id no cluster has); `voters_before` are "
                       "the voter ids of the super user's DescribeQuorum before the call (where the broker has it), "
                       "`voter_listed` whether the voter is one after it (awaited for `removed`)"))
def add_raft_voter(ctx: ProbeContext) -> dict[str, Any]:
    which, target = cluster_id_arg(ctx), str(ctx.args.get("target", "new"))
    endpoint = (RaftVoterEndpoint("CONTROLLER", "127.0.0.1", 9),)
    args = AddRaftVoterArgs(random.randint(1000, 1_000_000), str(uuid.uuid4()), endpoint, cluster_id_option(ctx, which))
    removed = None
    if target == "removed" and ADD_RAFT_VOTER_KEY in {r.api_key for r in ctx.cluster.api_versions}:
        removed = follower_voter(ctx)
        change_as_admin(ctx, removed, add=False)
        args = AddRaftVoterArgs(removed.node_id, removed.directory_id, removed.endpoints, args.cluster_id)
    elif target not in ("new", "removed"):
        raise ProbeFailed(f"add_raft_voter's target is new or removed, not {target!r}")
    before = voters(ctx)
    observed, _ = common(ctx.call(ADD_RAFT_VOTER, args))
    if before is not None:
        observed["voters_before"] = before
        listed = removed is not None and observed.get("error") == "NONE"
        observed["voter_listed"] = (await_voter(ctx, args.voter_id, present=True) if listed
                                    else args.voter_id in (voters(ctx) or []))
    if removed is not None and not observed.get("voter_listed"):
        change_as_admin(ctx, removed, add=True)  # the shared cluster keeps its voters
    return observed
