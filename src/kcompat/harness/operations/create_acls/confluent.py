"""Create ACLs through confluent-kafka's AdminClient: one outcome per binding, named by its spec's label."""

from __future__ import annotations

from . import CREATE_ACLS, CreateAclsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient, resource_outcome
from ...clients.kinds.confluent.shared import library


@CREATE_ACLS.implement(ConfluentClient)
def create_acls(client: ConfluentClient, args: CreateAclsArgs, version: int | None) -> AdminResult:
    ck = library().admin
    bindings = {ck.AclBinding(getattr(ck.ResourceType, acl.resource_type.upper()), acl.resource_name,
                              getattr(ck.ResourcePatternType, acl.pattern), acl.principal, acl.host,
                              getattr(ck.AclOperation, acl.operation), getattr(ck.AclPermissionType, acl.permission)):
                acl.label for acl in args.acls}
    return client.call("create_acls", "CreateAcls", client.library.create_acls, list(bindings),
                       {"request_timeout": 30}, lambda binding, future: resource_outcome(bindings[binding], future))
