"""Describe consumer-protocol groups through confluent-kafka's describe_consumer_groups: librdkafka sends
ConsumerGroupDescribe where it has it (2.12 on the axis) and DescribeGroups otherwise or after GROUP_ID_NOT_FOUND;
the record carries ConsumerGroupDescribe's version (none: not sent), each group its ``type``.  A release whose
ConsumerGroupDescription has no ``type`` predates KIP-848's groups: the record says so (NotImplementedError)."""

from __future__ import annotations

import dataclasses
import inspect
from concurrent.futures import Future
from typing import Any

from . import DESCRIBE_CONSUMER_PROTOCOL_GROUPS, DescribeConsumerProtocolGroupsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.groups import state_name, waited
from ...clients.kinds.confluent.shared import lacks, library

NAME = DESCRIBE_CONSUMER_PROTOCOL_GROUPS.name


@DESCRIBE_CONSUMER_PROTOCOL_GROUPS.implement(ConfluentClient)
def describe_consumer_protocol_groups(client: ConfluentClient, args: DescribeConsumerProtocolGroupsArgs,
                                      version: int | None) -> AdminResult:
    if (missing := lacks(client, NAME, "describe_consumer_groups")) is not None:
        return missing
    if "type" not in inspect.signature(library().admin.ConsumerGroupDescription).parameters:
        return AdminResult(NAME, client.kind, client.version, None, exception="NotImplementedError",
                           exception_message=f"confluent-kafka {client.version}'s ConsumerGroupDescription has no "
                                             "type: its describe_consumer_groups predates KIP-848's groups",
                           librdkafka_version=client.librdkafka_version)
    result = client.call(NAME, "ConsumerGroupDescribe", client.library.describe_consumer_groups, list(args.groups),
                         {"include_authorized_operations": args.include_authorized_operations,
                          "request_timeout": 30}, described)
    shown = next((tuple(r.fields) for r in result.resources if r.fields), ())
    return dataclasses.replace(result, result_fields=shown)


def described(group: str, future: Future[Any]) -> ResourceOutcome:
    """A group's description as its outcome."""
    value, outcome = waited(group, future)
    if value is None:
        return outcome
    fields: dict[str, Any] = {
        "state": state_name(value.state), "partition_assignor": value.partition_assignor,
        "coordinator": None if value.coordinator is None else int(value.coordinator.id),
        "members": [{"member_id": m.member_id, "client_id": m.client_id, "host": m.host,
                     "group_instance_id": getattr(m, "group_instance_id", None)} for m in value.members],
        "type": str(getattr(value.type, "name", value.type)).lower()}
    return dataclasses.replace(outcome, fields=fields)
