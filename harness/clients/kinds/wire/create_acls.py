"""Create acls through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

from ....operations.create_acls import CREATE_ACLS, CreateAclsArgs
from ...base import AdminResult
from ...wire import WireClient


@CREATE_ACLS.implement(WireClient)
def create_acls(client: WireClient, args: CreateAclsArgs, version: int | None) -> AdminResult:
    return client.create_acls(args.acls, version=version)
