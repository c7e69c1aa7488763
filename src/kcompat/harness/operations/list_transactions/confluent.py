"""listTransactions through confluent-kafka: no release on the axis (2.0 to 2.16) has AdminClient.list_transactions, and the
result says so; a release that has it is refused as unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import LIST_TRANSACTIONS, ListTransactionsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@LIST_TRANSACTIONS.implement(ConfluentClient)
def list_transactions(client: ConfluentClient, args: ListTransactionsArgs, version: int | None) -> AdminResult:
    if hasattr(client.library, "list_transactions"):
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.list_transactions, which kcompat does "
                               "not drive yet")
    return AdminResult("list_transactions", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.list_transactions",
                       librdkafka_version=client.librdkafka_version)
