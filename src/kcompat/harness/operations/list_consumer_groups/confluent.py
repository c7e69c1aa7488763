"""List consumer groups through confluent-kafka's AdminClient (``states``: KIP-518's filter)."""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future
from typing import Any

from . import LIST_CONSUMER_GROUPS, ListConsumerGroupsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.groups import failure, state_name, state_of, waited
from ...clients.kinds.confluent.shared import lacks


@LIST_CONSUMER_GROUPS.implement(ConfluentClient)
def list_consumer_groups(client: ConfluentClient, args: ListConsumerGroupsArgs, version: int | None) -> AdminResult:
    if (missing := lacks(client, "list_consumer_groups", "list_consumer_groups")) is not None:
        return missing
    listed: list[ResourceOutcome] = []

    def listing(_: object, **options: Any) -> dict[str, Future[Any]]:
        return {"listing": client.library.list_consumer_groups(**options)}

    def describe(key: str, future: Future[Any]) -> ResourceOutcome:
        value, outcome = waited(key, future)
        if value is not None:
            listed.extend(ResourceOutcome(str(g.group_id), 0, "NONE", None, {"state": state_name(g.state)})
                          for g in value.valid)
            listed.extend(failure("listing", error) for error in value.errors)
        else:
            listed.append(outcome)
        return outcome

    states = {state_of(s) for s in args.states}
    result = client.call("list_consumer_groups", "ListGroups", listing, None,
                          {"states": states, "request_timeout": 30}, describe)
    return dataclasses.replace(result, resources=tuple(listed), result_fields=("state",))
