"""Delete consumer groups through confluent-kafka's AdminClient."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from . import DELETE_CONSUMER_GROUPS, DeleteConsumerGroupsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.groups import waited
from ...clients.kinds.confluent.shared import lacks


@DELETE_CONSUMER_GROUPS.implement(ConfluentClient)
def delete_consumer_groups(client: ConfluentClient, args: DeleteConsumerGroupsArgs, version: int | None) -> AdminResult:
    if (missing := lacks(client, "delete_consumer_groups", "delete_consumer_groups")) is not None:
        return missing

    def describe(group: str, future: Future[Any]) -> ResourceOutcome:
        return waited(group, future)[1]

    return client.call("delete_consumer_groups", "DeleteGroups", client.library.delete_consumer_groups,
                        list(args.groups), {"request_timeout": 30}, describe)
