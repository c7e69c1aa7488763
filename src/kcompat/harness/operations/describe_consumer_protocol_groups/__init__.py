"""Describe groups of KIP-848's consumer protocol: ConsumerGroupDescribe at each group's coordinator.

Kafka's Admin has no method of its own for it: describeConsumerGroups sends ConsumerGroupDescribe first (kafka-clients
3.9 and 4.x do), and describes the group again through DescribeGroups when the broker lacks the API or answers
GROUP_ID_NOT_FOUND (a classic group, or none); confluent-kafka's describe_consumer_groups does the same from
librdkafka 2.12 on the axis.  The record's request version is ConsumerGroupDescribe's, and each group's ``type``
says which protocol's request answered."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeConsumerProtocolGroupsArgs:
    groups: Sequence[str]
    include_authorized_operations: bool = False


DESCRIBE_CONSUMER_PROTOCOL_GROUPS = Operation(
    "describe_consumer_protocol_groups", DescribeConsumerProtocolGroupsArgs, "ConsumerGroupDescribe",
    "one result per group: ``state``, ``type`` (``consumer``, or ``classic`` where DescribeGroups answered), "
    "``members`` (member_id, client_id, host, group_instance_id), ``coordinator`` (node id)",
    lambda topic: (DescribeConsumerProtocolGroupsArgs([f"{topic}-group"]),),
    java_class="DescribeConsumerProtocolGroups")
