"""forceTerminateTransaction (KIP-939, kafka-clients 4.1+): fenceProducers of one transactional id, which makes
its coordinator abort the transaction open under it."""

from __future__ import annotations

from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class ForceTerminateTransactionArgs:
    transactional_id: str


FORCE_TERMINATE_TRANSACTION = Operation(
    "force_terminate_transaction", ForceTerminateTransactionArgs, "InitProducerId",
    "one result, named by the transactional id: its error",
    lambda topic: (ForceTerminateTransactionArgs(f"{topic}-txn"),), java_class="ForceTerminateTransaction")
