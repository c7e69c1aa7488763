"""DescribeAcls through confluent-kafka's AdminClient (describe_acls: one future for the filter)."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from . import DESCRIBE_ACLS, AclFilter, DescribeAclsArgs, binding_label
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import CALL_TIMEOUT, ConfluentClient, resource_outcome
from ...clients.kinds.confluent.shared import library


def binding_filter(acl: AclFilter) -> Any:
    ck = library().admin
    return ck.AclBindingFilter(getattr(ck.ResourceType, acl.resource_type.upper()), acl.resource_name,
                               getattr(ck.ResourcePatternType, acl.pattern), acl.principal, acl.host,
                               getattr(ck.AclOperation, acl.operation), getattr(ck.AclPermissionType, acl.permission))


def labels(bindings: Any) -> list[str]:
    return sorted(binding_label(b.restype.name, b.name, b.principal, b.operation.name, b.permission_type.name)
                  for b in bindings)


@DESCRIBE_ACLS.implement(ConfluentClient)
def describe_acls(client: ConfluentClient, args: DescribeAclsArgs, version: int | None) -> AdminResult:
    def describe(label: str, future: Future[Any]) -> ResourceOutcome:
        outcome = resource_outcome(label, future)
        if outcome.error_code == 0 and outcome.exception is None:
            return ResourceOutcome.of(label, 0, None, bindings=labels(future.result(timeout=CALL_TIMEOUT)))
        return outcome

    def call(acl_filter: Any, **options: Any) -> dict[str, Future[Any]]:
        return {args.filter.label: client.library.describe_acls(acl_filter, **options)}

    return client.call("describe_acls", "DescribeAcls", call, binding_filter(args.filter),
                        {"request_timeout": 30}, describe)
