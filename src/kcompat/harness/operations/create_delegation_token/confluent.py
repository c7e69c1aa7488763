"""CreateDelegationToken through confluent-kafka: no release on the axis has an AdminClient method for it."""

from __future__ import annotations

from . import CREATE_DELEGATION_TOKEN, CreateDelegationTokenArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ..describe_client_quotas.confluent import lacking


@CREATE_DELEGATION_TOKEN.implement(ConfluentClient)
def create_delegation_token(client: ConfluentClient, args: CreateDelegationTokenArgs, version: int | None
                            ) -> AdminResult:
    return lacking(client, "create_delegation_token", "create_delegation_token")
