"""ListTransactions (KIP-664): the transactions every coordinator knows, optionally filtered by state."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class ListTransactionsArgs:
    states: Sequence[str] = ()
    """Transaction states as Kafka names them (``Ongoing``, ``CompleteCommit``...); empty: every state."""


LIST_TRANSACTIONS = Operation(
    "list_transactions", ListTransactionsArgs, "ListTransactions",
    "one result per listed transactional id (`producer_id`, `state`); a broker's error as a result named "
    "`broker:<id>`",
    lambda topic: (ListTransactionsArgs(), ListTransactionsArgs(("Ongoing",))), java_class="ListTransactions")
