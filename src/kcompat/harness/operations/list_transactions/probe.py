"""listTransactions (filtered by state where asked) while the super user's producer holds a transaction open."""

from __future__ import annotations

from typing import Any

from . import LIST_TRANSACTIONS, ListTransactionsArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.producers import open_transaction
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, simple_name


@probe(ProbeSpec("list_transactions", COMMON | {"listed", "state", "same_producer", "unknown_state_filters"},
                 {"states": list},
                 about="listTransactions (`states`: only transactions in these states, as Kafka names them) while "
                       "a transaction the super user began on a new transactional id is open; `listed`: that id "
                       "is listed, `state` and `same_producer` its listing; `error` is the first broker's error "
                       "(NONE when every broker answered)"))
def list_transactions(ctx: ProbeContext) -> dict[str, Any]:
    states = tuple(str(s) for s in ctx.args.get("states", ()))
    topic = ctx.topic("kc-txn-topic")
    ctx.create_topic(topic)
    with open_transaction(ctx.admin, ctx.topic("kc-txn"), topic) as producer:
        result = ctx.call(LIST_TRANSACTIONS, ListTransactionsArgs(states))
    observed: dict[str, Any] = {"exception": simple_name(result.exception)}
    if result.unsupported_options:
        observed["unsupported_options"] = list(result.unsupported_options)
    if result.exception is not None:
        return observed
    brokers = [r for r in result.resources if r.resource.startswith("broker:")]
    failed = next((r for r in brokers if r.error_code != 0), None)
    observed["error"] = failed.error_name if failed else "NONE"
    observed["error_message"] = failed.error_message if failed else None
    unknown = sorted({s for r in brokers for s in r.fields.get("unknown_state_filters", [])})
    if unknown:
        observed["unknown_state_filters"] = unknown
    mine = next((r for r in result.resources if r.resource == producer.transactional_id), None)
    observed["listed"] = mine is not None
    if mine is not None:
        observed["state"] = mine.fields.get("state")
        observed["same_producer"] = mine.fields.get("producer_id") == producer.producer_id
    return observed
