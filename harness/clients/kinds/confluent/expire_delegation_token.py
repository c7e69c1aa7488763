"""ExpireDelegationToken through confluent-kafka: no release on the axis has an AdminClient method for it."""

from __future__ import annotations

from ....operations.expire_delegation_token import EXPIRE_DELEGATION_TOKEN, ExpireDelegationTokenArgs
from ...base import AdminResult
from ...confluent import ConfluentClient
from .describe_client_quotas import lacking


@EXPIRE_DELEGATION_TOKEN.implement(ConfluentClient)
def expire_delegation_token(client: ConfluentClient, args: ExpireDelegationTokenArgs, version: int | None
                            ) -> AdminResult:
    return lacking(client, "expire_delegation_token", "expire_delegation_token")
