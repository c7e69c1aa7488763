"""DescribeTransactions (KIP-664): a transactional id's state, asked of its transaction coordinator."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class DescribeTransactionsArgs:
    transactional_ids: Sequence[str]


DESCRIBE_TRANSACTIONS = Operation(
    "describe_transactions", DescribeTransactionsArgs, "DescribeTransactions",
    "one result per transactional id: its error, `state`, `producer_id`, `producer_epoch`, `timeout_ms`, "
    "`start_time_ms` and `partitions` (`topic:partition`) in the transaction",
    lambda topic: (DescribeTransactionsArgs([f"{topic}-txn"]),), java_class="DescribeTransactions")
