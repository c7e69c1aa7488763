"""forceTerminateTransaction through the wire client: what kafka-clients sends for it, fenceProducers of the one
transactional id (InitProducerId at its coordinator without a producer id or epoch, retried while the
coordinator aborts the open transaction)."""

from __future__ import annotations

import dataclasses

from ..fence_producers import FenceProducersArgs
from . import FORCE_TERMINATE_TRANSACTION, ForceTerminateTransactionArgs
from ...clients.base import AdminResult
from ...clients.wire import WireClient
from ..fence_producers.wire import fence_producers


@FORCE_TERMINATE_TRANSACTION.implement(WireClient)
def force_terminate_transaction(client: WireClient, args: ForceTerminateTransactionArgs, version: int | None
                                ) -> AdminResult:
    fenced = fence_producers(client, FenceProducersArgs([args.transactional_id]), version)
    # the Admin result carries no producer id or epoch: only whether the id's transaction was terminated
    return dataclasses.replace(fenced, operation="force_terminate_transaction", result_fields=(),
                               resources=tuple(dataclasses.replace(r, fields={}) for r in fenced.resources))
