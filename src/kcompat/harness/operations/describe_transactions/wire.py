"""DescribeTransactions through the wire client, to each transactional id's coordinator."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_TRANSACTIONS, DescribeTransactionsArgs
from ...protocol import build_request
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.routing import coordinator
from ...clients.wire import WireClient, observed

DESCRIBE_TRANSACTIONS_KEY = 65
FIELDS = ("state", "producer_id", "producer_epoch", "timeout_ms", "start_time_ms", "partitions")


def transaction_fields(state: Any) -> dict[str, Any]:
    """One transaction's state under the neutral names (the same the Java sidecar writes; no start time, -1, is
    null as in its OptionalLong)."""
    started_ms = int(state.transaction_start_time)
    return {"state": str(state.transaction_state), "producer_id": int(state.producer_id),
            "producer_epoch": int(state.producer_epoch), "timeout_ms": int(state.transaction_timeout),
            "start_time_ms": None if started_ms < 0 else started_ms,
            "partitions": sorted(f"{t.topic}:{p}" for t in state.topics for p in t.partitions)}


@DESCRIBE_TRANSACTIONS.implement(WireClient)
@observed
def describe_transactions(client: WireClient, args: DescribeTransactionsArgs, version: int | None) -> AdminResult:
    """One request per transactional id, to its coordinator; a FindCoordinator error is that id's result."""
    client.require("describe_transactions", DESCRIBE_TRANSACTIONS_KEY, version)  # refused before any look-up
    outcomes = []
    sent: int | None = None
    for transactional_id in args.transactional_ids:
        code, address = coordinator(client, transactional_id)
        if address is None:
            outcomes.append(ResourceOutcome.of(transactional_id, code, "FindCoordinator"))
            continue

        def build(v: int, options: dict[str, bool], key: str = transactional_id) -> Any:
            return build_request(DESCRIBE_TRANSACTIONS_KEY, v, transactional_ids=(key,))

        sent, response, _ = client.send("describe_transactions", DESCRIBE_TRANSACTIONS_KEY, version, build, {},
                                         broker=address)
        for state in response.transaction_states:
            fields = transaction_fields(state) if int(state.error_code) == 0 else {}
            outcomes.append(ResourceOutcome.of(str(state.transactional_id), int(state.error_code), None, **fields))
    return AdminResult("describe_transactions", client.kind, client.version, sent, tuple(outcomes), FIELDS)
