"""Create acls through the Java AdminClient in its sidecar (``ops/CreateAcls.java``)."""

from __future__ import annotations

from ....operations.create_acls import CREATE_ACLS, CreateAclsArgs
from ...base import AdminResult
from ...java import JavaClient


@CREATE_ACLS.implement(JavaClient)
def create_acls(client: JavaClient, args: CreateAclsArgs, version: int | None) -> AdminResult:
    return client.create_acls(args.acls)
