"""AlterClientQuotas through confluent-kafka: no release on the axis has an AdminClient method for it."""

from __future__ import annotations

from . import ALTER_CLIENT_QUOTAS, AlterClientQuotasArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ..describe_client_quotas.confluent import lacking


@ALTER_CLIENT_QUOTAS.implement(ConfluentClient)
def alter_client_quotas(client: ConfluentClient, args: AlterClientQuotasArgs, version: int | None) -> AdminResult:
    return lacking(client, "alter_client_quotas", "alter_client_quotas")
