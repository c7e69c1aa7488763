"""DescribeClientQuotas through confluent-kafka: no release on the axis has an AdminClient method for it;
the record says so (NotImplementedError), never raises."""

from __future__ import annotations

from ...errors import HarnessError
from . import DESCRIBE_CLIENT_QUOTAS, DescribeClientQuotasArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.shared import lacks


def lacking(client: ConfluentClient, operation: str, method: str) -> AdminResult:
    """The record of a call no confluent-kafka release on the axis has a method for (``_shared.lacks``).

    A release that has grown the method is our gap, not the client's: a HarnessError (``infra_error``) that
    asks for its mapping, never a NotImplementedError the client did not raise."""
    missing = lacks(client, operation, method)
    if missing is None:
        raise HarnessError(f"confluent-kafka {client.version} has AdminClient.{method}, which kcompat does not "
                           f"call yet (src/kcompat/harness/clients/kinds/confluent/{operation}.py)")
    return missing


@DESCRIBE_CLIENT_QUOTAS.implement(ConfluentClient)
def describe_client_quotas(client: ConfluentClient, args: DescribeClientQuotasArgs, version: int | None
                           ) -> AdminResult:
    return lacking(client, "describe_client_quotas", "describe_client_quotas")
