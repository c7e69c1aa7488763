"""Create acls through confluent-kafka's AdminClient."""

from __future__ import annotations

from ....operations.create_acls import CREATE_ACLS, CreateAclsArgs
from ...base import AdminResult
from ...confluent import ConfluentClient


@CREATE_ACLS.implement(ConfluentClient)
def create_acls(client: ConfluentClient, args: CreateAclsArgs, version: int | None) -> AdminResult:
    return client.create_acls(args.acls)
