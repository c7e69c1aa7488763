"""describeTransactions of a transaction the super user's producer holds open (or of an unknown id)."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from . import DESCRIBE_TRANSACTIONS, DescribeTransactionsArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.producers import Producer, open_transaction
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common


@probe(ProbeSpec("describe_transactions", COMMON | {"state", "same_producer", "producer_epoch", "partitions_listed",
                                                     "timeout_ms", "start_time_ms"},
                 {"target": str},
                 about="describeTransactions of a transactional id whose transaction the super user began, wrote "
                       "to partition 0 of a new topic in and holds open (`target` `open`, the default; `unknown`: "
                       "an id no producer used); `same_producer`: the producer id is the set-up's; "
                       "`partitions_listed`: the transaction's partitions are exactly that one"))
def describe_transactions(ctx: ProbeContext) -> dict[str, Any]:
    transactional_id = ctx.topic("kc-txn")
    with ExitStack() as stack:
        producer: Producer | None = None
        if ctx.args.get("target", "open") == "open":
            topic = ctx.topic("kc-txn-topic")
            ctx.create_topic(topic)
            producer = stack.enter_context(open_transaction(ctx.admin, transactional_id, topic))
        result = ctx.call(DESCRIBE_TRANSACTIONS, DescribeTransactionsArgs([transactional_id]))
    observed, outcome = common(result)
    if outcome is None or outcome.error_code != 0:
        return observed
    fields = outcome.fields
    for key in ("state", "producer_epoch", "timeout_ms", "start_time_ms"):
        if key in fields:
            observed[key] = fields[key]
    if producer is not None:
        observed["same_producer"] = fields.get("producer_id") == producer.producer_id
        observed["partitions_listed"] = fields.get("partitions") == [f"{producer.topic}:{producer.partition}"]
    return observed
