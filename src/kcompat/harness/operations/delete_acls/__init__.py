"""DeleteAcls: the bindings each filter matches are deleted (Admin.deleteAcls)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation
from ..describe_acls import AclFilter


@dataclass(frozen=True)
class DeleteAclsArgs:
    filters: Sequence[AclFilter]


DELETE_ACLS = Operation(
    "delete_acls", DeleteAclsArgs, "DeleteAcls",
    "one result per filter (named by `AclFilter.label`): its error and `deleted`, the labels of the bindings "
    "it deleted",
    lambda topic: (DeleteAclsArgs([AclFilter("topic", topic, "User:kcompat")]),), java_class="DeleteAcls")
