"""ConsumerGroupDescribe (KIP-848) of a group nobody made, or of a consumer-protocol group with a live member."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_CONSUMER_PROTOCOL_GROUPS, DescribeConsumerProtocolGroupsArgs
from .setup import consumer_protocol_member
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON
from ..describe_consumer_groups.probe import described_group

KEYS = COMMON | {"described", "state", "members", "type"}


@probe(ProbeSpec("describe_consumer_protocol_groups", KEYS, {"member": bool},
                 about="ConsumerGroupDescribe (KIP-848; the libraries' describeConsumerGroups, which may fall "
                       "back to DescribeGroups) of a new group id: nobody made it, or (`member`) a member the super "
                       "user joined with ConsumerGroupHeartbeat, subscribed to a new topic; `described` is whether "
                       "the group came back without error, `state` and `members` as described, `type` the protocol "
                       "of the request that answered (`consumer`; `classic` where the client fell back to "
                       "DescribeGroups)"))
def describe_consumer_protocol_groups(ctx: ProbeContext) -> dict[str, Any]:
    group = ctx.topic("kc-cgroup")
    if not ctx.args.get("member", False):
        return observed(ctx, group)
    topic = ctx.topic("kc-cgrp")
    ctx.create_topic(topic)
    with consumer_protocol_member(ctx, group, topic):
        return observed(ctx, group)


def observed(ctx: ProbeContext, group: str) -> dict[str, Any]:
    result = ctx.call(DESCRIBE_CONSUMER_PROTOCOL_GROUPS, DescribeConsumerProtocolGroupsArgs([group]))
    found = described_group(ctx, result, group)
    mine = next((r for r in result.resources if r.resource == group), None)
    if found["described"] and mine is not None and "type" in mine.fields:
        found["type"] = mine.fields["type"]
    return {k: v for k, v in found.items() if k in KEYS}
