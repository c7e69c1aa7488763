"""Create ACLs through the wire client, at the cell's pinned request version where it has one (v0 has no
pattern type: literal only)."""

from __future__ import annotations

from typing import Any

from . import CREATE_ACLS, CreateAclsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import ACL_OPERATIONS, ACL_PATTERNS, ACL_PERMISSIONS, ACL_RESOURCE_TYPES, WireClient, observed
from ...protocol import build_request, nested_type

API_KEY = 30


def _request(args: CreateAclsArgs, v: int) -> Any:
    creation = nested_type(API_KEY, v, "AclCreation", creations=())
    return build_request(API_KEY, v, creations=tuple(creation(
        resource_type=ACL_RESOURCE_TYPES[a.resource_type], resource_name=a.resource_name, principal=a.principal,
        host=a.host, operation=ACL_OPERATIONS[a.operation], permission_type=ACL_PERMISSIONS[a.permission],
        **({"resource_pattern_type": ACL_PATTERNS[a.pattern]} if v >= 1 else {})) for a in args.acls))


@CREATE_ACLS.implement(WireClient)
@observed
def create_acls(client: WireClient, args: CreateAclsArgs, version: int | None) -> AdminResult:
    sent, response, _ = client.send("create_acls", API_KEY, version, lambda v, options: _request(args, v), {})
    outcomes = tuple(ResourceOutcome.of(a.label, int(r.error_code), r.error_message)
                     for a, r in zip(args.acls, response.results, strict=False))  # fewer results: recorded as seen
    return AdminResult("create_acls", client.kind, client.version, sent, outcomes)
