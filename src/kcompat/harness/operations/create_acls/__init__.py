"""CreateAcls: ACL bindings, each result named as ``AclSpec.label`` names it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...clients.base import AclSpec
from .. import Operation


@dataclass(frozen=True)
class CreateAclsArgs:
    acls: Sequence[AclSpec]


CREATE_ACLS = Operation(
    "create_acls", CreateAclsArgs, "CreateAcls", "one result per binding: its error",
    lambda topic: (CreateAclsArgs([AclSpec("topic", topic, "User:kcompat", "READ")]),), java_class="CreateAcls")
