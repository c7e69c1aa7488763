"""Describe consumer groups through confluent-kafka's AdminClient; include_authorized_operations where the
release takes it (KIP-430), reported unsupported where it does not."""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future
from typing import Any

from . import DESCRIBE_CONSUMER_GROUPS, DescribeConsumerGroupsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.groups import state_name, waited
from ...clients.kinds.confluent.shared import lacks

OPTION = "include_authorized_operations"


@DESCRIBE_CONSUMER_GROUPS.implement(ConfluentClient)
def describe_consumer_groups(client: ConfluentClient, args: DescribeConsumerGroupsArgs,
                             version: int | None) -> AdminResult:
    if (missing := lacks(client, "describe_consumer_groups", "describe_consumer_groups")) is not None:
        return missing
    dropped: list[str] = []

    def describing(groups: list[str], **options: Any) -> Any:
        try:
            return client.library.describe_consumer_groups(groups, **options)
        except TypeError:  # a release without the keyword (2.0.2 says only "takes at most 3 arguments"): the
            if OPTION not in options:  # call is made without it, and says so; a call that fails so too raises
                raise
            answer = client.library.describe_consumer_groups(groups, **{k: v for k, v in options.items()
                                                                       if k != OPTION})
            dropped.append(OPTION)
            return answer

    def describe(group: str, future: Future[Any]) -> ResourceOutcome:
        value, outcome = waited(group, future)
        if value is None:
            return outcome
        fields: dict[str, Any] = {
            "state": state_name(value.state), "partition_assignor": value.partition_assignor,
            "coordinator": None if value.coordinator is None else int(value.coordinator.id),
            "members": [{"member_id": m.member_id, "client_id": m.client_id, "host": m.host,
                         "group_instance_id": getattr(m, "group_instance_id", None)} for m in value.members]}
        if hasattr(value, "authorized_operations"):
            operations = value.authorized_operations
            fields["authorized_operations"] = (None if operations is None
                                               else [getattr(o, "name", str(o)) for o in operations])
        return dataclasses.replace(outcome, fields=fields)

    result = client.call("describe_consumer_groups", "DescribeGroups", describing, list(args.groups),
                          {OPTION: args.include_authorized_operations, "request_timeout": 30}, describe)
    shown = tuple(result.resources[0].fields) if result.resources else ()
    return dataclasses.replace(result, result_fields=shown,
                               unsupported_options=tuple(dict.fromkeys((*result.unsupported_options, *dropped))))
