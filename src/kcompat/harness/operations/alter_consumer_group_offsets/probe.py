"""alterConsumerGroupOffsets of a group the super user committed offsets for; the offsets read back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...clients import AdminResult
from . import ALTER_CONSUMER_GROUP_OFFSETS, AlterConsumerGroupOffsetsArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.groups import committed_group, fetched_offsets, member_as_asked
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, many_common


@probe(ProbeSpec("alter_consumer_group_offsets", COMMON | {"offsets_after", "altered"},
                 {"committed": list, "to": list, "member": str},
                 about="alterConsumerGroupOffsets of a new group from the offsets the super user committed "
                       "(`committed`, one per partition of a new topic) to `to` (`member`: `dynamic` or `static` "
                       "keeps a live member in the group during the call); `offsets_after` are the committed "
                       "offsets OffsetFetch then gives the super user, `altered` whether they are `to`"))
def alter_consumer_group_offsets(ctx: ProbeContext) -> dict[str, Any]:
    return altered_offsets(ctx, lambda group, offsets: ctx.call(ALTER_CONSUMER_GROUP_OFFSETS,
                                                                AlterConsumerGroupOffsetsArgs(group, offsets)))


def altered_offsets(ctx: ProbeContext, alter: Callable[[str, list[tuple[str, int, int]]], AdminResult]
                    ) -> dict[str, Any]:
    """The observation, whichever method alters the group's offsets (``alter(group, triples)``:
    alterStreamsGroupOffsets sends the same OffsetCommit)."""
    committed = [int(o) for o in ctx.args.get("committed", [5, 7])]
    to = [int(o) for o in ctx.args.get("to", [2, 3])]
    group, topic = committed_group(ctx, dict(enumerate(committed)))
    with member_as_asked(ctx, group, topic, len(committed)):
        result = alter(group, [(topic, p, o) for p, o in enumerate(to)])
        after = fetched_offsets(ctx, group, topic, len(committed))
    observed = many_common(result)
    observed["offsets_after"] = [after.get(p) for p in range(len(committed))]
    observed["altered"] = observed["offsets_after"] == to
    return observed
