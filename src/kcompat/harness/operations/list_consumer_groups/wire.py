"""List consumer groups through the wire client: ListGroups to every broker (each lists the groups it
coordinates), keeping the groups of the consumer protocol (or none: offsets committed without members), as
kafka-clients' listConsumerGroups does."""

from __future__ import annotations

from typing import Any

from . import LIST_CONSUMER_GROUPS, ListConsumerGroupsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, Refused
from ...clients.kinds.wire.groups import LIST_GROUPS, brokers, has, refused, request

CONSUMER_PROTOCOLS = frozenset({"consumer", ""})


@LIST_CONSUMER_GROUPS.implement(WireClient)
def list_consumer_groups(client: WireClient, args: ListConsumerGroupsArgs, version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        return request(LIST_GROUPS, v, states_filter=tuple(args.states) if options.get("states_filter") else ())

    outcomes: list[ResourceOutcome] = []
    sent: int | None = None
    with_state = False
    try:
        for host, port in brokers(client):
            sent, response, _ = client.send("list_consumer_groups", LIST_GROUPS, version, build,
                                             {"states_filter": bool(args.states)}, broker=(host, port))
            if int(response.error_code) != 0:
                outcomes.append(ResourceOutcome.of(f"broker:{host}:{port}", int(response.error_code)))
            for group in response.groups:
                if str(group.protocol_type) not in CONSUMER_PROTOCOLS:
                    continue
                fields: dict[str, Any] = {"protocol_type": str(group.protocol_type)}
                if has(group, "group_state"):
                    with_state = True
                    fields["state"] = str(group.group_state)
                outcomes.append(ResourceOutcome.of(str(group.group_id), 0, None, **fields))
    except Refused as exc:
        return refused("list_consumer_groups", exc)
    return AdminResult("list_consumer_groups", client.kind, client.version, sent, tuple(outcomes),
                       ("protocol_type", "state") if with_state else ("protocol_type",))
