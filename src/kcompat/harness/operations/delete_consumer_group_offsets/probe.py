"""deleteConsumerGroupOffsets of a group the super user committed offsets for; the offsets read back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...clients import AdminResult
from . import (
    DELETE_CONSUMER_GROUP_OFFSETS,
    DeleteConsumerGroupOffsetsArgs,
)
from ...matrix.probe import ProbeContext
from ...matrix.setups.groups import committed_group, fetched_offsets, member_as_asked
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, many_common


@probe(ProbeSpec("delete_consumer_group_offsets", COMMON | {"offsets_after", "deleted"},
                 {"committed": list, "member": str},
                 about="deleteConsumerGroupOffsets of every partition of a new group whose offsets the super "
                       "user committed (`committed`, one per partition of a new topic; `member`: `dynamic` or "
                       "`static` keeps a live member subscribed to the topic during the call); `offsets_after` "
                       "are the committed offsets OffsetFetch then gives the super user (null: none), `deleted` "
                       "whether none is left"))
def delete_consumer_group_offsets(ctx: ProbeContext) -> dict[str, Any]:
    return deleted_offsets(ctx, lambda group, partitions: ctx.call(
        DELETE_CONSUMER_GROUP_OFFSETS, DeleteConsumerGroupOffsetsArgs(group, partitions)))


def deleted_offsets(ctx: ProbeContext, delete: Callable[[str, list[tuple[str, int]]], AdminResult]
                    ) -> dict[str, Any]:
    """The observation, whichever method deletes the group's offsets (``delete(group, partitions)``:
    deleteStreamsGroupOffsets sends the same OffsetDelete)."""
    committed = [int(o) for o in ctx.args.get("committed", [5, 7])]
    group, topic = committed_group(ctx, dict(enumerate(committed)))
    partitions = [(topic, p) for p in range(len(committed))]
    with member_as_asked(ctx, group, topic, len(committed)):
        result = delete(group, partitions)
        after = fetched_offsets(ctx, group, topic, len(committed))
    observed = many_common(result)
    observed["offsets_after"] = [after.get(p) for p in range(len(committed))]
    observed["deleted"] = all(o is None for o in observed["offsets_after"])
    return observed
