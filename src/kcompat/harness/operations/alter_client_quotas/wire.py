"""AlterClientQuotas through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

from typing import Any

from . import ALTER_CLIENT_QUOTAS, AlterClientQuotasArgs
from ..describe_client_quotas import entity_label
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

API_KEY = 49


@ALTER_CLIENT_QUOTAS.implement(WireClient)
@observed
def alter_client_quotas(client: WireClient, args: AlterClientQuotasArgs, version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        entry, entity, op = (nested_type(API_KEY, v, name, entries=(), validate_only=False)
                             for name in ("EntryData", "EntityData", "OpData"))
        return build_request(API_KEY, v, validate_only=args.validate_only, entries=(entry(
            entity=tuple(entity(entity_type=t, entity_name=n) for t, n in sorted(args.entity.items())),
            ops=tuple(op(key=k, value=0.0 if value is None else float(value), remove=value is None)
                      for k, value in sorted(args.quotas.items()))),))

    sent, response, _ = client.send("alter_client_quotas", API_KEY, version, build, {})
    outcomes = tuple(ResourceOutcome.of(
        entity_label({str(e.entity_type): None if e.entity_name is None else str(e.entity_name) for e in r.entity}),
        int(r.error_code), r.error_message) for r in response.entries)
    return AdminResult("alter_client_quotas", client.kind, client.version, sent, outcomes)
