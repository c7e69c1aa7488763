"""DescribeDelegationToken through confluent-kafka: no release on the axis has an AdminClient method for it."""

from __future__ import annotations

from . import DESCRIBE_DELEGATION_TOKEN, DescribeDelegationTokenArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ..describe_client_quotas.confluent import lacking


@DESCRIBE_DELEGATION_TOKEN.implement(ConfluentClient)
def describe_delegation_token(client: ConfluentClient, args: DescribeDelegationTokenArgs, version: int | None
                              ) -> AdminResult:
    return lacking(client, "describe_delegation_token", "describe_delegation_token")
