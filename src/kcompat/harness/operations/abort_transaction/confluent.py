"""abortTransaction through confluent-kafka: no release on the axis (2.0 to 2.16) has AdminClient.abort_transaction,
and the result says so; a release that has it is refused as unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import ABORT_TRANSACTION, AbortTransactionArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient


@ABORT_TRANSACTION.implement(ConfluentClient)
def abort_transaction(client: ConfluentClient, args: AbortTransactionArgs, version: int | None) -> AdminResult:
    if hasattr(client.library, "abort_transaction"):
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.abort_transaction, which kcompat "
                               "does not drive yet")
    return AdminResult("abort_transaction", client.kind, client.version, None, exception="NotImplementedError",
                       exception_message=f"confluent-kafka {client.version} has no AdminClient.abort_transaction",
                       librdkafka_version=client.librdkafka_version)
