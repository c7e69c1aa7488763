"""describeStreamsGroups (KIP-1071) of a group nobody made, or of a streams group a live member made with its
StreamsGroupHeartbeat (src/kcompat/harness/matrix/setups/streams_groups.py): no admin call makes one."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from . import DESCRIBE_STREAMS_GROUPS, DescribeStreamsGroupsArgs
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON
from ...matrix.setups.streams_groups import SUBTOPOLOGY, has_streams_groups, streams_member, streams_topic
from ...matrix.verdict import call_refused
from ..describe_consumer_groups.probe import described_group
from ..describe_share_groups.probe import assigned_partitions

KEYS = COMMON | {"described", "state", "members", "assigned_partitions", "source_topics"}
GROUPS = ("unknown", "live")


@probe(ProbeSpec("describe_streams_groups", KEYS, {"group": str},
                 about="describeStreamsGroups of a new group id nobody made (`group` `unknown`, the default), or "
                       "(`live`) of a new streams group one live member made (StreamsGroupHeartbeat with a topology "
                       "of one subtopology reading a new one-partition topic, assigned its task); `described` is "
                       "whether the group came back without error, `state` and `members` as described, "
                       "`assigned_partitions` the partitions of the subtopology the members' active tasks name, "
                       "`source_topics` each subtopology's source topics, the set-up's as `source` (both left out "
                       "where the client does not carry them)"))
def describe_streams_groups(ctx: ProbeContext) -> dict[str, Any]:
    group, kind = ctx.topic("kc-streams-group"), ctx.args.get("group", "unknown")
    if kind not in GROUPS:
        raise ProbeFailed(f"group is one of {', '.join(GROUPS)}, not {kind!r}")
    live = kind == "live" and has_streams_groups(ctx)
    topic = streams_topic(ctx) if live else ""
    with streams_member(ctx, group, topic) if live else nullcontext():
        result = ctx.call(DESCRIBE_STREAMS_GROUPS, DescribeStreamsGroupsArgs([group]))
    observed = {k: v for k, v in described_group(ctx, result, group).items() if k in KEYS}
    if kind == "live" and not live and not call_refused(observed, ctx.client.kind):
        raise ProbeFailed(f"set-up: broker {ctx.cluster.spec.version} offers no StreamsGroupHeartbeat, so no "
                          f"streams group could be made to describe")
    if (assigned := assigned_partitions(result, group, SUBTOPOLOGY)) is not None:
        observed["assigned_partitions"] = assigned
    mine = next((r for r in result.resources if r.resource == group and r.error_code == 0), None)
    if mine is not None and isinstance(mine.fields.get("subtopologies"), list):
        observed["source_topics"] = [["source" if t == topic else t for t in s.get("source_topics") or ()]
                                     for s in mine.fields["subtopologies"]]
    return observed
