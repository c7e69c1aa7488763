"""DeleteAcls through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

from typing import Any

from ...protocol import build_request, nested_type
from . import DELETE_ACLS, DeleteAclsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed
from ..describe_acls.wire import filter_fields, label_of

API_KEY = 31


@DELETE_ACLS.implement(WireClient)
@observed
def delete_acls(client: WireClient, args: DeleteAclsArgs, version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        entity = nested_type(API_KEY, v, "DeleteAclsFilter", filters=())
        return build_request(API_KEY, v, filters=tuple(entity(**filter_fields(f, v, "delete_acls", client))
                                                         for f in args.filters))

    sent, response, _ = client.send("delete_acls", API_KEY, version, build, {})
    outcomes = []
    for acl, result in zip(args.filters, response.filter_results, strict=False):  # fewer results: as seen
        deleted = sorted(label_of(m.resource_type, str(m.resource_name), str(m.principal), m.operation,
                                  m.permission_type) for m in result.matching_acls if int(m.error_code) == 0)
        outcomes.append(ResourceOutcome.of(acl.label, int(result.error_code), result.error_message,
                                           deleted=deleted if int(result.error_code) == 0 else None))
    return AdminResult("delete_acls", client.kind, client.version, sent, tuple(outcomes), ("deleted",))
