"""abortTransaction through the wire client: WriteTxnMarkers with one abort marker, to the partition's leader
(as the Java AdminClient sends it)."""

from __future__ import annotations

from typing import Any

from . import ABORT_TRANSACTION, AbortTransactionArgs
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.routing import leader
from ...clients.wire import WireClient, observed

WRITE_TXN_MARKERS = 27


@ABORT_TRANSACTION.implement(WireClient)
@observed
def abort_transaction(client: WireClient, args: AbortTransactionArgs, version: int | None) -> AdminResult:
    def build(v: int, options: dict[str, bool]) -> Any:
        marker = nested_type(WRITE_TXN_MARKERS, v, "WritableTxnMarker", markers=())
        topic = nested_type(WRITE_TXN_MARKERS, v, "WritableTxnMarkerTopic", markers=())
        return build_request(WRITE_TXN_MARKERS, v, markers=(marker(
            producer_id=args.producer_id, producer_epoch=args.producer_epoch, transaction_result=False,
            topics=(topic(name=args.topic, partition_indexes=(args.partition,)),),
            coordinator_epoch=args.coordinator_epoch),))

    sent, response, _ = client.send("abort_transaction", WRITE_TXN_MARKERS, version, build, {},
                                     broker=leader(client, args.topic, args.partition))
    outcomes = tuple(ResourceOutcome.of(f"{t.name}:{p.partition_index}", int(p.error_code))
                     for marker in response.markers for t in marker.topics for p in t.partitions)
    return AdminResult("abort_transaction", client.kind, client.version, sent, outcomes)
