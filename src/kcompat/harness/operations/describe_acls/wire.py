"""DescribeAcls through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

from typing import Any

from ...protocol import build_request
from . import DESCRIBE_ACLS, AclFilter, DescribeAclsArgs, binding_label
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import (
    ACL_ANY,
    ACL_OPERATIONS,
    ACL_PATTERNS,
    ACL_PERMISSIONS,
    ACL_RESOURCE_TYPES,
    DESCRIBE_ACLS as API_KEY,
    WireClient,
    observed,
    Refused,
)

FILTER_TYPES = {"any": ACL_ANY, **ACL_RESOURCE_TYPES}
FILTER_PATTERNS = {"ANY": ACL_ANY, "MATCH": 2, **ACL_PATTERNS}
FILTER_OPERATIONS = {"ANY": ACL_ANY, **ACL_OPERATIONS}
FILTER_PERMISSIONS = {"ANY": ACL_ANY, **ACL_PERMISSIONS}
_NAMES = {code: name for name, code in ACL_RESOURCE_TYPES.items()}
_OPERATIONS = {code: name for name, code in ACL_OPERATIONS.items()}
_PERMISSIONS = {code: name for name, code in ACL_PERMISSIONS.items()}


def filter_fields(acl: AclFilter, version: int, operation: str, client: WireClient) -> dict[str, Any]:
    """The filter as request fields; v0 has no pattern type (literal only), so another pattern is nothing sent."""
    fields: dict[str, Any] = {
        "resource_type_filter": FILTER_TYPES[acl.resource_type], "resource_name_filter": acl.resource_name,
        "principal_filter": acl.principal, "host_filter": acl.host,
        "operation": FILTER_OPERATIONS[acl.operation], "permission_type": FILTER_PERMISSIONS[acl.permission]}
    if version >= 1:
        fields["pattern_type_filter"] = FILTER_PATTERNS[acl.pattern]
    elif acl.pattern != "LITERAL":
        raise Refused(AdminResult(operation, client.kind, client.version, None, exception="UnsupportedOption",
                                   exception_message=f"v{version} filters literal names only, not {acl.pattern}; "
                                                     "nothing was sent", unsupported_options=("pattern",)))
    return fields


def label_of(resource_type: int, name: str, principal: str, operation: int, permission: int) -> str:
    return binding_label(_NAMES.get(int(resource_type), str(resource_type)), name, principal,
                         _OPERATIONS.get(int(operation), str(operation)),
                         _PERMISSIONS.get(int(permission), str(permission)))


@DESCRIBE_ACLS.implement(WireClient)
@observed
def describe_acls(client: WireClient, args: DescribeAclsArgs, version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        return build_request(API_KEY, v, **filter_fields(args.filter, v, "describe_acls", client))

    sent, response, _ = client.send("describe_acls", API_KEY, version, build, {})
    bindings = sorted(label_of(r.resource_type, str(r.resource_name), str(a.principal), a.operation,
                               a.permission_type) for r in response.resources for a in r.acls)
    outcome = ResourceOutcome.of(args.filter.label, int(response.error_code), response.error_message,
                                 bindings=bindings if int(response.error_code) == 0 else None)
    return AdminResult("describe_acls", client.kind, client.version, sent, (outcome,), ("bindings",))
