"""listShareGroupOffsets (KIP-932) of a share group made with known start offsets."""

from __future__ import annotations

from typing import Any

from . import LIST_SHARE_GROUP_OFFSETS, ListShareGroupOffsetsArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.share_groups import judged_without_group, made_share_group, share_topic
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, many_common


@probe(ProbeSpec("list_share_group_offsets", COMMON | {"offsets"}, {"start": int},
                 about="listShareGroupOffsets of a new share group the super user gave start offset `start` "
                       "(default 2) on partition 0 of a new topic holding 5 records (AlterShareGroupOffsets); "
                       "`offsets`: the start offset listed for that partition (null: none)"))
def list_share_group_offsets(ctx: ProbeContext) -> dict[str, Any]:
    topic = share_topic(ctx)
    group, made = made_share_group(ctx, topic, {0: int(ctx.args.get("start", 2))})
    result = ctx.call(LIST_SHARE_GROUP_OFFSETS, ListShareGroupOffsetsArgs(group))
    observed = many_common(result)
    judged_without_group(ctx, made, observed, "list the offsets of")
    if result.exception is None and observed.get("error") == "NONE":
        found = {r.resource: r.fields.get("offset") for r in result.resources}
        observed["offsets"] = [found.get(f"{topic}:0")]
    return observed
