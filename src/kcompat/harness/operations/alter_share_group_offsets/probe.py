"""alterShareGroupOffsets (KIP-932) of a new share group; the offsets read back."""

from __future__ import annotations

from typing import Any

from . import ALTER_SHARE_GROUP_OFFSETS, AlterShareGroupOffsetsArgs
from ...matrix.probe import ProbeContext
from ...matrix.verdict import call_refused
from ...matrix.setups.share_groups import share_topic, start_offsets
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, many_common


@probe(ProbeSpec("alter_share_group_offsets", COMMON | {"offsets_after", "altered"}, {"to": int},
                 about="alterShareGroupOffsets of a new share group id to start offset `to` (default 2) on "
                       "partition 0 of a new topic holding 5 records (the call makes the group, empty); "
                       "`offsets_after` are the start offsets the super user's DescribeShareGroupOffsets then "
                       "gives (left out where the call was refused), `altered` whether they are [`to`]"))
def alter_share_group_offsets(ctx: ProbeContext) -> dict[str, Any]:
    to = int(ctx.args.get("to", 2))
    topic, group = share_topic(ctx), ctx.topic("kc-share-group")
    result = ctx.call(ALTER_SHARE_GROUP_OFFSETS, AlterShareGroupOffsetsArgs(group, [(topic, 0, to)]))
    observed = many_common(result)
    after = None if call_refused(observed, ctx.client.kind) else start_offsets(ctx, group, topic, 1)
    if after is not None:
        observed["offsets_after"] = after
        observed["altered"] = after == [to]
    return observed
