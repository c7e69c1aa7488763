"""CreateAcls of one binding as the cell's client, checked by listing the ACLs as the super user."""

from __future__ import annotations

from typing import Any

from ...clients import AclSpec
from . import CREATE_ACLS, CreateAclsArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, common
from ...waiting import attempts


@probe(ProbeSpec("create_acls", COMMON | {"created"}, {"as_user": str},
                 about="CreateAcls of one binding (READ on a new topic for a principal nobody uses); `created` is "
                       "whether DescribeAcls, as the super user, then lists it"))
def create_acls(ctx: ProbeContext) -> dict[str, Any]:
    """CreateAcls of one binding as the cell's user; ``created`` is settled by listing the topic's ACLs as the
    super user (DescribeAcls, or ZooKeeper where the broker has no DescribeAcls; bounded: a KRaft broker lists
    a new ACL once it has applied the controller's record)."""
    binding = AclSpec("topic", ctx.topic("acl"), "User:kcompat-nobody", "READ")
    result = ctx.call(CREATE_ACLS, CreateAclsArgs([binding]))
    observed, _ = common(result)
    for _ in attempts(SETTLE if observed.get("error") == "NONE" else 0.0, interval=0.1):
        observed["created"] = binding.label in ctx.listed_acls("topic", binding.resource_name)
        if observed["created"]:
            break
    return observed
