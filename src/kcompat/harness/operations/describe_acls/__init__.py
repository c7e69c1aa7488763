"""DescribeAcls: the bindings one filter matches (Admin.describeAcls with an AclBindingFilter)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class AclFilter:
    """An AclBindingFilter in the words every client takes: None and ``ANY`` match anything."""

    resource_type: str
    """``topic``, ``group``, ``cluster`` or ``any``."""
    resource_name: str | None = None
    principal: str | None = None
    operation: str = "ANY"
    permission: str = "ANY"
    pattern: str = "LITERAL"
    """LITERAL, PREFIXED, ANY or MATCH; a client or request version without pattern types takes LITERAL only."""
    host: str | None = None

    @property
    def label(self) -> str:
        """How every client names this filter's result: ``topic:t:User:alice:ANY:ANY``."""
        return (f"{self.resource_type}:{self.resource_name or '*'}:{self.principal or '*'}:"
                f"{self.operation}:{self.permission}")


def binding_label(resource_type: str, name: str, principal: str, operation: str, permission: str) -> str:
    """A matched binding as ``AclSpec.label`` names it, whatever spelling the client has for its enums."""
    return f"{resource_type.lower()}:{name}:{principal}:{operation.upper()}:{permission.upper()}"


@dataclass(frozen=True)
class DescribeAclsArgs:
    filter: AclFilter


DESCRIBE_ACLS = Operation(
    "describe_acls", DescribeAclsArgs, "DescribeAcls",
    "one result for the filter: its error and `bindings`, the labels of the bindings it matched",
    lambda topic: (DescribeAclsArgs(AclFilter("topic", topic)),), java_class="DescribeAcls")
