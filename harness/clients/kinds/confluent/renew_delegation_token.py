"""RenewDelegationToken through confluent-kafka: no release on the axis has an AdminClient method for it."""

from __future__ import annotations

from ....operations.renew_delegation_token import RENEW_DELEGATION_TOKEN, RenewDelegationTokenArgs
from ...base import AdminResult
from ...confluent import ConfluentClient
from .describe_client_quotas import lacking


@RENEW_DELEGATION_TOKEN.implement(ConfluentClient)
def renew_delegation_token(client: ConfluentClient, args: RenewDelegationTokenArgs, version: int | None
                           ) -> AdminResult:
    return lacking(client, "renew_delegation_token", "renew_delegation_token")
