"""Describe classic groups through the wire client: the same DescribeGroups as describeConsumerGroups sends
(the protocol has one request for both; the Java methods differ in what they return)."""

from __future__ import annotations

import dataclasses

from . import DESCRIBE_CLASSIC_GROUPS, DescribeClassicGroupsArgs
from ..describe_consumer_groups import DescribeConsumerGroupsArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ..describe_consumer_groups.wire import describe_consumer_groups


@DESCRIBE_CLASSIC_GROUPS.implement(WireClient)
def describe_classic_groups(client: WireClient, args: DescribeClassicGroupsArgs, version: int | None) -> AdminResult:
    result = describe_consumer_groups(client, DescribeConsumerGroupsArgs(args.groups, args.include_authorized_operations),
                                      version)
    return dataclasses.replace(result, operation="describe_classic_groups")
