"""ExpireDelegationToken through confluent-kafka: no release on the axis has an AdminClient method for it."""

from __future__ import annotations

from . import EXPIRE_DELEGATION_TOKEN, ExpireDelegationTokenArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ..describe_client_quotas.confluent import lacking


@EXPIRE_DELEGATION_TOKEN.implement(ConfluentClient)
def expire_delegation_token(client: ConfluentClient, args: ExpireDelegationTokenArgs, version: int | None
                            ) -> AdminResult:
    return lacking(client, "expire_delegation_token", "expire_delegation_token")
