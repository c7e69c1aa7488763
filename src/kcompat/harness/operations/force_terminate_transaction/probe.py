"""forceTerminateTransaction of a transactional id whose transaction the super user's producer holds open: is it
terminated (aborted), and what do DescribeTransactions and the producer's own commit say afterwards?"""

from __future__ import annotations

from typing import Any

from .. import perform
from ..list_transactions import LIST_TRANSACTIONS, ListTransactionsArgs
from . import FORCE_TERMINATE_TRANSACTION, ForceTerminateTransactionArgs
from ...waiting import attempts
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.setups.producers import end_transaction, offsets, open_transaction
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, common
from ..fence_producers.probe import FENCED

LIST_TRANSACTIONS_KEY = 66


def state_after(ctx: ProbeContext, transactional_id: str) -> str | None:
    """The transaction's state as the super user's ListTransactions gives it (not DescribeTransactions: a
    terminated transaction's start time is -1, which kio can't read as a time); None where the broker has no
    ListTransactions (before 3.0) or does not list the id."""
    if LIST_TRANSACTIONS_KEY not in {r.api_key for r in ctx.cluster.api_versions}:
        return None
    listed = perform(ctx.admin, LIST_TRANSACTIONS, ListTransactionsArgs())
    found = next((r for r in listed.resources if r.resource == transactional_id), None)
    return None if found is None else found.fields.get("state")


@probe(ProbeSpec("force_terminate_transaction", COMMON | {"aborted", "state_after", "old_producer_error", "fenced"},
                 {},
                 about="forceTerminateTransaction of a transactional id whose transaction the super user's producer "
                       "holds open on partition 0 of a new topic; `aborted`: the partition's last stable offset "
                       "reaches its high watermark (bounded wait), which the open transaction held back; "
                       "`state_after`: the transaction's state in the super user's ListTransactions (brokers "
                       "3.0+); `old_producer_error`: what the coordinator answers the old producer's commit, "
                       "`fenced` whether it is PRODUCER_FENCED or INVALID_PRODUCER_EPOCH"))
def force_terminate_transaction(ctx: ProbeContext) -> dict[str, Any]:
    topic, transactional_id = ctx.topic("kc-txn-topic"), ctx.topic("kc-txn")
    ctx.create_topic(topic)
    with open_transaction(ctx.admin, transactional_id, topic) as producer:
        stable, high = offsets(ctx.admin, topic, producer.partition)
        if stable >= high:
            raise ProbeFailed(f"set-up: the open transaction does not hold back {topic}-0's last stable offset "
                              f"({stable}, high watermark {high})")
        observed, _ = common(ctx.call(FORCE_TERMINATE_TRANSACTION, ForceTerminateTransactionArgs(transactional_id)))
        aborted = False
        for _ in attempts(SETTLE if observed.get("error") == "NONE" else 0, interval=0.2):
            stable, high = offsets(ctx.admin, topic, producer.partition)
            if (aborted := stable >= high):
                break
        observed["aborted"] = aborted
        if (state := state_after(ctx, transactional_id)) is not None:
            observed["state_after"] = state
        old = end_transaction(ctx.admin, producer, commit=True)
    observed["old_producer_error"] = old
    observed["fenced"] = old in FENCED
    return observed
