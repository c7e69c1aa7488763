"""alterPartitionReassignments of a new topic's partition to other brokers, and its replicas once done."""

from __future__ import annotations

from typing import Any

from . import (
    ALTER_PARTITION_REASSIGNMENTS,
    AlterPartitionReassignmentsArgs,
    Reassignment,
)
from ..elect_leaders import TopicPartition
from ...waiting import attempts
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, call_keys, create, partition, replicas_of


@probe(ProbeSpec("alter_partition_reassignments", COMMON | {"reassigned", "replicas_after"},
                 {"initial": list, "replicas": list, "target": str},
                 about="alterPartitionReassignments of partition 0 of a new topic on brokers `initial` (default "
                       "[1]) to `replicas` (default [2]; target `cancel`: cancel, with no reassignment in flight; "
                       "`unknown`: a topic nobody created); `replicas_after` is its replicas in Metadata once they "
                       "are the target (awaited, bounded) or when that wait ends, `reassigned` whether they are"))
def alter_partition_reassignments(ctx: ProbeContext) -> dict[str, Any]:
    name = ctx.topic("kc-reassign")
    target = ctx.args.get("target", "existing")
    wanted = [int(r) for r in ctx.args.get("replicas", [2])]
    if target != "unknown":
        create(ctx, name, [int(r) for r in ctx.args.get("initial", [1])])
    replicas = None if target == "cancel" else wanted
    result = ctx.call(ALTER_PARTITION_REASSIGNMENTS,
                      AlterPartitionReassignmentsArgs([Reassignment(TopicPartition(name, 0), replicas)]))
    observed = call_keys(result, None)
    if target == "unknown":
        return observed
    found = partition(ctx, name)
    if observed.get("error") == "NONE" and replicas is not None:
        for _ in attempts(SETTLE, interval=0.2):
            found = partition(ctx, name)
            if found is not None and replicas_of(found) == wanted:
                break
    observed["replicas_after"] = None if found is None else replicas_of(found)
    observed["reassigned"] = observed["replicas_after"] == wanted
    return observed
