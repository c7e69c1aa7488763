"""DescribeDelegationToken through confluent-kafka: no release on the axis has an AdminClient method for it."""

from __future__ import annotations

from ....operations.describe_delegation_token import DESCRIBE_DELEGATION_TOKEN, DescribeDelegationTokenArgs
from ...base import AdminResult
from ...confluent import ConfluentClient
from .describe_client_quotas import lacking


@DESCRIBE_DELEGATION_TOKEN.implement(ConfluentClient)
def describe_delegation_token(client: ConfluentClient, args: DescribeDelegationTokenArgs, version: int | None
                              ) -> AdminResult:
    return lacking(client, "describe_delegation_token", "describe_delegation_token")
