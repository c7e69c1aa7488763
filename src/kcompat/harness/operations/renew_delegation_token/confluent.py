"""RenewDelegationToken through confluent-kafka: no release on the axis has an AdminClient method for it."""

from __future__ import annotations

from . import RENEW_DELEGATION_TOKEN, RenewDelegationTokenArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ..describe_client_quotas.confluent import lacking


@RENEW_DELEGATION_TOKEN.implement(ConfluentClient)
def renew_delegation_token(client: ConfluentClient, args: RenewDelegationTokenArgs, version: int | None
                           ) -> AdminResult:
    return lacking(client, "renew_delegation_token", "renew_delegation_token")
