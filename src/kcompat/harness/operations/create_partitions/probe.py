"""CreatePartitions of a topic the super user made, and Metadata as the call returns and once settled."""

from __future__ import annotations

from typing import Any

from ...clients import NewPartitions, kind
from . import CREATE_PARTITIONS, CreatePartitionsArgs
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, common, metadata
from ...waiting import attempts


def _topic_partitions(ctx: ProbeContext, name: str) -> list[Any] | None:
    """The topic's partitions (by index) as the controller's Metadata shows them; None if it has no such topic."""
    response, _ = metadata(ctx, controller=True)
    for topic in response.topics:
        if str(topic.name) == name and int(topic.error_code) == 0:
            return sorted(topic.partitions, key=lambda p: int(p.partition_index))
    return None


def _await_partitions(ctx: ProbeContext, name: str, count: int) -> None:
    """Set-up: wait (bounded) until the controller's Metadata shows the new topic with ``count`` partitions."""
    for _ in attempts(SETTLE, interval=0.1):
        if (partitions := _topic_partitions(ctx, name)) is not None and len(partitions) == count:
            return
    raise ProbeFailed(f"set-up: {name} did not show {count} partition(s) in Metadata within {SETTLE:.0f}s")


def _settled(ctx: ProbeContext, name: str, initial: int, partitions: list[Any] | None) -> list[Any] | None:
    """After a successful call, the partitions once Metadata shows the change (bounded): KRaft brokers apply
    metadata after the controller answers, so ``partitions_after`` (read at once) may still show the old count;
    what changed is judged on the settled view, how soon on the immediate one."""
    for number in attempts(SETTLE, interval=0.1):
        if number > 1:  # the first look is the immediate view the caller read
            partitions = _topic_partitions(ctx, name)
        if partitions is not None and len(partitions) != initial:
            break
    return partitions


@probe(ProbeSpec("create_partitions", COMMON | {"partitions_after", "changed", "replicas_after", "leaders_after"},
                 {"initial": int, "replication_factor": int, "count": int, "assignments": list, "validate_only": bool,
                  "as_user": str, "target": str, "send_to": str, "topic_acl": str},
                 about="CreatePartitions of a topic the super user created with `initial` partitions (target "
                       "`existing`, `unknown`: a topic nobody created, `duplicate`: the topic twice in one request; "
                       "send_to `non_controller`: the wire client sends to a broker that is not the controller; "
                       "`topic_acl`: `as_user` is granted this operation on the topic first); "
                       "`partitions_after`, `replicas_after`, `leaders_after` are Metadata as the call returns"))
def create_partitions(ctx: ProbeContext) -> dict[str, Any]:
    """CreatePartitions of a topic made by the super user; Metadata read back as soon as the call returns."""
    args = ctx.args
    target = args.get("target", "existing")
    name = ctx.topic("kc")
    initial = args.get("initial", 1)
    if target != "unknown":
        ctx.create_topic(name, partitions=initial, replication_factor=args.get("replication_factor", 1))
        _await_partitions(ctx, name, initial)
        ctx.grant_topic(name)
    assignments = args.get("assignments")
    request = [NewPartitions(name, args["count"], assignments)] * (2 if target == "duplicate" else 1)
    broker: tuple[str, int] | None = None
    if args.get("send_to") == "non_controller":
        if not kind(ctx.cell.client.kind).chooses_broker:
            raise ProbeFailed("send_to = non_controller is for a client that chooses its broker (the wire client; "
                              "other clients pick the broker)")
        controller = ctx.admin.controller()
        others = [(b.host, b.port) for b in ctx.cluster.brokers if (b.host, b.port) != controller]
        if not others:
            raise ProbeFailed("send_to = non_controller needs a cluster of two or more nodes")
        broker = ctx.reach(others[0])
    validate_only = bool(args.get("validate_only", False))
    result = ctx.call(CREATE_PARTITIONS, CreatePartitionsArgs(request, validate_only, broker))
    observed, _ = common(result)
    partitions = _topic_partitions(ctx, name)
    observed["partitions_after"] = None if partitions is None else len(partitions)
    if observed.get("error") == "NONE" and not validate_only:
        partitions = _settled(ctx, name, initial, partitions)
    observed["changed"] = partitions is not None and len(partitions) != initial
    if partitions is not None:
        added = [p for p in partitions if int(p.partition_index) >= initial]
        observed["replicas_after"] = [[int(r) for r in p.replica_nodes] for p in added]
        observed["leaders_after"] = [int(p.leader_id) for p in added]
    return observed
