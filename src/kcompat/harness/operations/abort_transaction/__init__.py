"""abortTransaction (KIP-664): a WriteTxnMarkers abort marker for a producer's open transaction on a partition."""

from __future__ import annotations

from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class AbortTransactionArgs:
    """Kafka's AbortTransactionSpec: the partition and the producer whose transaction is open there."""

    topic: str
    partition: int
    producer_id: int
    producer_epoch: int
    coordinator_epoch: int


ABORT_TRANSACTION = Operation(
    "abort_transaction", AbortTransactionArgs, "WriteTxnMarkers",
    "one result, `topic:partition`: its error",
    lambda topic: (AbortTransactionArgs(topic, 0, 1000, 0, 0),), java_class="AbortTransaction")
