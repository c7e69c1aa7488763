"""ListTransactions through the wire client: every broker (each may coordinate some transactions)."""

from __future__ import annotations

from typing import Any

from . import LIST_TRANSACTIONS, ListTransactionsArgs
from ...protocol import build_request
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.routing import brokers
from ...clients.wire import WireClient, observed

LIST_TRANSACTIONS_KEY = 66


@LIST_TRANSACTIONS.implement(WireClient)
@observed
def list_transactions(client: WireClient, args: ListTransactionsArgs, version: int | None) -> AdminResult:
    """The listings of every broker, one result per transactional id; a broker's error (or the filters it did
    not know, ``unknown_state_filters``) as a result named ``broker:<id>``."""
    def build(v: int, options: dict[str, bool]) -> Any:
        return build_request(LIST_TRANSACTIONS_KEY, v, state_filters=tuple(args.states), producer_id_filters=())

    outcomes = []
    sent: int | None = None
    for node, address in sorted(brokers(client).items()):
        sent, response, _ = client.send("list_transactions", LIST_TRANSACTIONS_KEY, version, build, {},
                                         broker=address)
        if int(response.error_code) != 0 or response.unknown_state_filters:
            outcomes.append(ResourceOutcome.of(f"broker:{node}", int(response.error_code), None,
                                               unknown_state_filters=list(response.unknown_state_filters)))
        outcomes += [ResourceOutcome.of(str(t.transactional_id), 0, None, producer_id=int(t.producer_id),
                                        state=str(t.transaction_state)) for t in response.transaction_states]
    return AdminResult("list_transactions", client.kind, client.version, sent, tuple(outcomes),
                       ("producer_id", "state"))
