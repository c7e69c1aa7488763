"""DescribeClientQuotas through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

from typing import Any

from . import (
    DESCRIBE_CLIENT_QUOTAS,
    DescribeClientQuotasArgs,
    entity_label,
)
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

API_KEY = 48
MATCH_EXACT, MATCH_DEFAULT = 0, 1


@DESCRIBE_CLIENT_QUOTAS.implement(WireClient)
@observed
def describe_client_quotas(client: WireClient, args: DescribeClientQuotasArgs, version: int | None
                           ) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        component = nested_type(API_KEY, v, "ComponentData", components=(), strict=False)
        exact = args.entity_name is not None
        return build_request(API_KEY, v, strict=args.strict, components=(component(
            entity_type=args.entity_type, match_type=MATCH_EXACT if exact else MATCH_DEFAULT,
            match=args.entity_name),))

    sent, response, _ = client.send("describe_client_quotas", API_KEY, version, build, {})
    code = int(response.error_code)
    entries = None if code != 0 else {
        entity_label({str(e.entity_type): None if e.entity_name is None else str(e.entity_name) for e in entry.entity}):
            {str(value.key): float(value.value) for value in entry.values}
        for entry in response.entries or ()}
    label = entity_label({args.entity_type: args.entity_name})
    return AdminResult("describe_client_quotas", client.kind, client.version, sent,
                       (ResourceOutcome.of(label, code, response.error_message, entries=entries),), ("entries",))
