"""listConsumerGroupOffsets of a group the super user committed offsets for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...clients import AdminResult
from . import LIST_CONSUMER_GROUP_OFFSETS, ListConsumerGroupOffsetsArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.groups import committed_group, member_as_asked, partition_results
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, many_common


@probe(ProbeSpec("list_consumer_group_offsets", COMMON | {"offsets"}, {"committed": list, "member": str},
                 about="listConsumerGroupOffsets of every partition of a new group whose offsets the super user "
                       "committed (`committed`, one per partition of a new topic; `member`: `dynamic` or "
                       "`static` adds a live member); `offsets` are the offsets listed, by partition (null: "
                       "none listed for it)"))
def list_consumer_group_offsets(ctx: ProbeContext) -> dict[str, Any]:
    return listed_offsets(ctx, lambda group: ctx.call(LIST_CONSUMER_GROUP_OFFSETS,
                                                      ListConsumerGroupOffsetsArgs(group)))


def listed_offsets(ctx: ProbeContext, list_offsets: Callable[[str], AdminResult]) -> dict[str, Any]:
    """The observation, whichever method lists the group's offsets (``list_offsets(group)``: listStreamsGroupOffsets
    sends the same OffsetFetch)."""
    committed = [int(o) for o in ctx.args.get("committed", [5, 7])]
    group, topic = committed_group(ctx, dict(enumerate(committed)))
    with member_as_asked(ctx, group, topic, len(committed)):
        result = list_offsets(group)
    observed = many_common(result)
    if result.exception is None and observed.get("error") == "NONE":
        found = partition_results(result, topic)
        observed["offsets"] = [found[p].fields.get("offset") if p in found else None
                               for p in range(len(committed))]
    return observed
