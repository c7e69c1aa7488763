"""listPartitionReassignments of a new topic's partition that nothing reassigns, or of a partition nobody made."""

from __future__ import annotations

from typing import Any

from ..elect_leaders import TopicPartition
from . import LIST_PARTITION_REASSIGNMENTS, ListPartitionReassignmentsArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, call_keys, create


@probe(ProbeSpec("list_partition_reassignments", COMMON | {"listed", "reassignments"},
                 {"target": str, "all": bool},
                 about="listPartitionReassignments of partition 0 of a new topic nothing reassigns (target "
                       "`existing`; `unknown`: of a topic nobody created; `all`: every reassignment in the cluster "
                       "rather than the named partition); `listed` is whether the partition is listed, "
                       "`reassignments` how many are"))
def list_partition_reassignments(ctx: ProbeContext) -> dict[str, Any]:
    name = ctx.topic("kc-listreassign")
    if ctx.args.get("target", "existing") != "unknown":
        create(ctx, name)
    tp = TopicPartition(name, 0)
    result = ctx.call(LIST_PARTITION_REASSIGNMENTS,
                      ListPartitionReassignmentsArgs(None if ctx.args.get("all", False) else [tp]))
    failed = [r for r in result.resources if r.resource == "*"]
    observed = call_keys(result, failed[0] if failed else None)
    if not failed and not result.exception:
        observed.setdefault("error", "NONE")
        observed.setdefault("error_message", None)
        observed["listed"] = any(r.resource == tp.label for r in result.resources)
        observed["reassignments"] = len(result.resources)
    return observed
