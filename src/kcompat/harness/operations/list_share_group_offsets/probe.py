"""listShareGroupOffsets (KIP-932) of a share group made with known start offsets, or whose live member
accepted records."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from . import LIST_SHARE_GROUP_OFFSETS, ListShareGroupOffsetsArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.share_groups import judged_without_group, made_share_group, share_member, share_topic
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, many_common


@probe(ProbeSpec("list_share_group_offsets", COMMON | {"offsets"}, {"start": int, "accepted": int},
                 about="listShareGroupOffsets of a new share group the super user gave start offset `start` "
                       "(default 2) on partition 0 of a new topic holding 5 records (AlterShareGroupOffsets); "
                       "`accepted` (1 to 4): instead from start offset 0, a live member (ShareGroupHeartbeat) "
                       "fetched the 5 records (ShareFetch), accepted that many and released the rest "
                       "(ShareAcknowledge), and is still a member when the call is made; `offsets`: the start "
                       "offset listed for that partition (null: none)"))
def list_share_group_offsets(ctx: ProbeContext) -> dict[str, Any]:
    topic = share_topic(ctx)
    accepted = int(ctx.args.get("accepted", 0))
    group, made = made_share_group(ctx, topic, {0: 0 if accepted else int(ctx.args.get("start", 2))})
    with share_member(ctx, group, topic, accepted) if made and accepted else nullcontext():
        result = ctx.call(LIST_SHARE_GROUP_OFFSETS, ListShareGroupOffsetsArgs(group))
    observed = many_common(result)
    judged_without_group(ctx, made, observed, "list the offsets of")
    if result.exception is None and observed.get("error") == "NONE":
        found = {r.resource: r.fields.get("offset") for r in result.resources}
        observed["offsets"] = [found.get(f"{topic}:0")]
    return observed
