"""List groups of every type through the wire client: ListGroups to every broker, no protocol kept out."""

from __future__ import annotations

from typing import Any

from . import LIST_GROUPS, ListGroupsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, Refused
from ...clients.kinds.wire.groups import LIST_GROUPS as LIST_GROUPS_API
from ...clients.kinds.wire.groups import brokers, has, refused, request


@LIST_GROUPS.implement(WireClient)
def list_groups(client: WireClient, args: ListGroupsArgs, version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        return request(LIST_GROUPS_API, v, types_filter=tuple(args.types) if options.get("types_filter") else (),
                       states_filter=tuple(args.states) if options.get("states_filter") else ())

    outcomes: list[ResourceOutcome] = []
    sent: int | None = None
    seen: dict[str, None] = {"protocol_type": None}
    try:
        for host, port in brokers(client):
            sent, response, _ = client.send("list_groups", LIST_GROUPS_API, version, build,
                                             {"types_filter": bool(args.types), "states_filter": bool(args.states)},
                                             broker=(host, port))
            if int(response.error_code) != 0:
                outcomes.append(ResourceOutcome.of(f"broker:{host}:{port}", int(response.error_code)))
            for group in response.groups:
                fields: dict[str, Any] = {"protocol_type": str(group.protocol_type)}
                if has(group, "group_state"):
                    fields["state"] = str(group.group_state)
                if has(group, "group_type"):
                    fields["type"] = str(group.group_type).lower()
                seen.update(dict.fromkeys(fields))
                outcomes.append(ResourceOutcome.of(str(group.group_id), 0, None, **fields))
    except Refused as exc:
        return refused("list_groups", exc)
    return AdminResult("list_groups", client.kind, client.version, sent, tuple(outcomes), tuple(seen))
