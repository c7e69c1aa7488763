"""fenceProducers through the wire client: InitProducerId of each transactional id at its coordinator, as the
Java AdminClient sends it (no producer id or epoch of its own: the coordinator bumps the epoch)."""

from __future__ import annotations

import datetime
from typing import Any

from kio.static.primitive import i32Timedelta

from ....operations.fence_producers import FENCE_PRODUCERS, FenceProducersArgs
from ....protocol import build_request, request_fields
from ...base import AdminResult, ResourceOutcome
from ...routing import coordinator
from ...wire import WireClient, _observed

INIT_PRODUCER_ID = 22
TRANSACTION_TIMEOUT = i32Timedelta.parse(datetime.timedelta(minutes=1))


@FENCE_PRODUCERS.implement(WireClient)
@_observed
def fence_producers(client: WireClient, args: FenceProducersArgs, version: int | None) -> AdminResult:
    outcomes = []
    sent: int | None = None
    for transactional_id in args.transactional_ids:
        code, address = coordinator(client, transactional_id)
        if address is None:
            outcomes.append(ResourceOutcome.of(transactional_id, code, "FindCoordinator"))
            continue

        def build(v: int, options: dict[str, bool], key: str = transactional_id) -> Any:
            fresh = {"producer_id": -1, "producer_epoch": -1} if "producer_id" in request_fields(
                INIT_PRODUCER_ID, v) else {}
            return build_request(INIT_PRODUCER_ID, v, transactional_id=key, transaction_timeout=TRANSACTION_TIMEOUT,
                                 **fresh)

        sent, response, _ = client._send("fence_producers", INIT_PRODUCER_ID, version, build, {}, broker=address)
        fields = ({"producer_id": int(response.producer_id), "producer_epoch": int(response.producer_epoch)}
                  if int(response.error_code) == 0 else {})
        outcomes.append(ResourceOutcome.of(transactional_id, int(response.error_code), None, **fields))
    return AdminResult("fence_producers", client.kind, client.version, sent, tuple(outcomes),
                       ("producer_id", "producer_epoch"))
