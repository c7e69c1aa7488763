"""forceTerminateTransaction through confluent-kafka: no release on the axis has
AdminClient.force_terminate_transaction, and the result says so; a release that has it is refused as
unimplemented here until kcompat drives it."""

from __future__ import annotations

from .. import NoImplementation
from . import FORCE_TERMINATE_TRANSACTION, ForceTerminateTransactionArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.shared import lacks


@FORCE_TERMINATE_TRANSACTION.implement(ConfluentClient)
def force_terminate_transaction(client: ConfluentClient, args: ForceTerminateTransactionArgs, version: int | None
                                ) -> AdminResult:
    missing = lacks(client, "force_terminate_transaction", "force_terminate_transaction")
    if missing is None:
        raise NoImplementation(f"confluent-kafka {client.version} has AdminClient.force_terminate_transaction, "
                               "which kcompat does not drive yet")
    return missing
