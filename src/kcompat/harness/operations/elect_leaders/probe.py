"""electLeaders of a partition whose leader is not its preferred replica, and who leads it afterwards."""

from __future__ import annotations

from typing import Any

from ...clients import AdminResult
from .. import perform
from ..alter_partition_reassignments import (
    ALTER_PARTITION_REASSIGNMENTS,
    AlterPartitionReassignmentsArgs,
    Reassignment,
)
from . import ELECT_LEADERS, ElectLeadersArgs, TopicPartition
from ..elect_preferred_leaders import ELECT_PREFERRED_LEADERS, ElectPreferredLeadersArgs
from ...waiting import attempts
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, call_keys, create, partition, replicas_of

REASSIGNMENTS = 45
"""AlterPartitionReassignments' key: where the broker has it, the set-up puts the preferred replica second."""


def _displace(ctx: ProbeContext, name: str, leader: int, follower: int) -> bool:
    """Set-up: reorder the replicas to [follower, leader], so the leader is no longer the preferred replica
    (a reassignment within the same replicas moves no leadership); False where the broker can't reassign."""
    if REASSIGNMENTS not in {r.api_key for r in ctx.cluster.api_versions}:
        return False
    tp = TopicPartition(name, 0)
    result = perform(ctx.admin, ALTER_PARTITION_REASSIGNMENTS,
                     AlterPartitionReassignmentsArgs([Reassignment(tp, [follower, leader])]))
    if result.exception or any(r.error_code != 0 for r in result.resources):
        raise ProbeFailed(f"set-up: reordering {tp.label}'s replicas as the super user gave "
                          f"{result.exception or [r.error_name for r in result.resources]}")
    for _ in attempts(SETTLE, interval=0.1):
        found = partition(ctx, name)
        if found is not None and replicas_of(found) == [follower, leader]:
            return int(found.leader_id) == leader
    raise ProbeFailed(f"set-up: {tp.label}'s replicas did not become {[follower, leader]} within {SETTLE:.0f}s")


@probe(ProbeSpec("elect_leaders", COMMON | {"displaced", "leader_is_preferred"},
                 {"election_type": str, "target": str, "method": str},
                 about="electLeaders (`election_type` preferred or unclean) of partition 0 of a new topic on "
                       "brokers 1 and 2 (a cluster of two nodes or more), its replicas first reordered by the super "
                       "user so the leader is not the preferred replica where the broker can reassign (`displaced`); "
                       "`leader_is_preferred` is whether the preferred replica leads it once the call returns "
                       "(awaited, bounded); target `unknown`: a partition of a topic nobody created; method "
                       "`electPreferredLeaders`: the call electLeaders replaced (a preferred election)"))
def elect_leaders(ctx: ProbeContext) -> dict[str, Any]:
    name = ctx.topic("kc-elect")
    election = ctx.args.get("election_type", "preferred")
    if election not in ("preferred", "unclean"):
        raise ProbeFailed(f"election_type is preferred or unclean, not {election!r}")
    if ctx.args.get("target", "existing") == "unknown":
        return call_keys(_elect(ctx, election, TopicPartition(name, 0)), None)
    if len(ctx.cluster.brokers) < 2:
        raise ProbeFailed("elect_leaders needs a cluster of two nodes or more (cluster = { nodes = 3 })")
    first, second = (b.node_id for b in ctx.cluster.brokers[:2])
    create(ctx, name, [first, second])
    displaced = _displace(ctx, name, first, second)
    observed = call_keys(_elect(ctx, election, TopicPartition(name, 0)), None)
    observed["displaced"] = displaced
    preferred = False
    for _ in attempts(SETTLE if observed.get("error") == "NONE" else 0.0, interval=0.1):
        found = partition(ctx, name)
        if preferred := found is not None and int(found.leader_id) == replicas_of(found)[0]:
            break
    observed["leader_is_preferred"] = preferred
    return observed


def _elect(ctx: ProbeContext, election: str, tp: TopicPartition) -> AdminResult:
    """The observed call: electLeaders, or the electPreferredLeaders it replaced where the claim names it."""
    method = ctx.args.get("method", "electLeaders")
    if method == "electPreferredLeaders":
        if election != "preferred":
            raise ProbeFailed("electPreferredLeaders elects the preferred replica only (election_type = preferred)")
        return ctx.call(ELECT_PREFERRED_LEADERS, ElectPreferredLeadersArgs([tp]))
    if method != "electLeaders":
        raise ProbeFailed(f"method is electLeaders or electPreferredLeaders, not {method!r}")
    return ctx.call(ELECT_LEADERS, ElectLeadersArgs("unclean" if election == "unclean" else "preferred", [tp]))
