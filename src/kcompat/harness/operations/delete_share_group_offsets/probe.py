"""deleteShareGroupOffsets (KIP-932) of the topic a share group has start offsets on; the offsets read back."""

from __future__ import annotations

from typing import Any

from . import DELETE_SHARE_GROUP_OFFSETS, DeleteShareGroupOffsetsArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.share_groups import judged_without_group, made_share_group, share_topic, start_offsets
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, many_common


@probe(ProbeSpec("delete_share_group_offsets", COMMON | {"offsets_after", "deleted"}, {},
                 about="deleteShareGroupOffsets of the one topic a new share group has a start offset on (the "
                       "super user's AlterShareGroupOffsets gave it); `offsets_after` are the start offsets the "
                       "super user's DescribeShareGroupOffsets then gives (null: none; left out where the broker "
                       "has none), `deleted` whether none is left"))
def delete_share_group_offsets(ctx: ProbeContext) -> dict[str, Any]:
    topic = share_topic(ctx)
    group, made = made_share_group(ctx, topic, {0: 2})
    result = ctx.call(DELETE_SHARE_GROUP_OFFSETS, DeleteShareGroupOffsetsArgs(group, [topic]))
    observed = many_common(result)
    judged_without_group(ctx, made, observed, "delete the offsets of")
    after = start_offsets(ctx, group, topic, 1)
    if after is not None:
        observed["offsets_after"] = after
        observed["deleted"] = all(o is None for o in after)
    return observed
