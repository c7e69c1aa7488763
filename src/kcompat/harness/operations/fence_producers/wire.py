"""fenceProducers through the wire client: InitProducerId of each transactional id at its coordinator, as the
Java AdminClient sends it (no producer id or epoch of its own: the coordinator bumps the epoch) and retries it.

A transaction open under the id makes the coordinator abort it and answer CONCURRENT_TRANSACTIONS until the
abort is written; the Java AdminClient's handler retries that (and a coordinator loading or moved), so this
does too, within ``RETRY_FOR``: the last answer is the result.
"""

from __future__ import annotations

from typing import Any

from . import FENCE_PRODUCERS, FenceProducersArgs
from ...protocol import build_request, request_fields
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.routing import coordinator
from ...clients.wire import WireClient, observed
from ...waiting import attempts

INIT_PRODUCER_ID = 22
TRANSACTION_TIMEOUT = 60_000
"""Milliseconds the transaction InitProducerId asks for may stay open."""
RETRY_FOR = 30.0
RETRIABLE = frozenset({"CONCURRENT_TRANSACTIONS", "COORDINATOR_LOAD_IN_PROGRESS", "COORDINATOR_NOT_AVAILABLE",
                       "NOT_COORDINATOR"})


@FENCE_PRODUCERS.implement(WireClient)
@observed
def fence_producers(client: WireClient, args: FenceProducersArgs, version: int | None) -> AdminResult:
    client.require("fence_producers", INIT_PRODUCER_ID, version)  # a broker without it: refused before any look-up
    outcomes = []
    sent: int | None = None
    for transactional_id in args.transactional_ids:
        def build(v: int, options: dict[str, bool], key: str = transactional_id) -> Any:
            fresh = {"producer_id": -1, "producer_epoch": -1} if "producer_id" in request_fields(
                INIT_PRODUCER_ID, v) else {}
            return build_request(INIT_PRODUCER_ID, v, transactional_id=key, transaction_timeout=TRANSACTION_TIMEOUT,
                                 **fresh)

        outcome: ResourceOutcome | None = None
        for _ in attempts(RETRY_FOR, interval=0.2):
            code, address = coordinator(client, transactional_id)
            if address is None:
                outcome = ResourceOutcome.of(transactional_id, code, "FindCoordinator")
            else:
                sent, response, _ = client.send("fence_producers", INIT_PRODUCER_ID, version, build, {},
                                                 broker=address)
                fields = ({"producer_id": int(response.producer_id), "producer_epoch": int(response.producer_epoch)}
                          if int(response.error_code) == 0 else {})
                outcome = ResourceOutcome.of(transactional_id, int(response.error_code), None, **fields)
            if outcome.error_name not in RETRIABLE:
                break
        assert outcome is not None  # attempts() yields at least once
        outcomes.append(outcome)
    return AdminResult("fence_producers", client.kind, client.version, sent, tuple(outcomes),
                       ("producer_id", "producer_epoch"))
