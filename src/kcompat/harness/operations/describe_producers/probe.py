"""describeProducers of a partition an idempotent (or transactional) producer of the super user wrote to."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from . import DESCRIBE_PRODUCERS, DescribeProducersArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.producers import Producer, idempotent_producer, open_transaction
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common

RECORDS = 3


@probe(ProbeSpec("describe_producers", COMMON | {"listed", "producers", "last_sequence", "producer_epoch",
                                                  "coordinator_epoch", "current_txn_start_offset"},
                 {"producer": str},
                 about="describeProducers of partition 0 of a new topic after the super user's producer wrote "
                       f"{RECORDS} records to it (`producer`: `idempotent`, the default, or `transactional`, whose "
                       "transaction stays open); `listed`: that producer is among the active producers; the other "
                       "keys are its state there (`current_txn_start_offset` null when it has no open transaction)"))
def describe_producers(ctx: ProbeContext) -> dict[str, Any]:
    """The set-up producer's id is what the answer is searched for: other producers may share the broker."""
    topic = ctx.topic("kc-producers")
    ctx.create_topic(topic)
    with ExitStack() as stack:
        producer: Producer
        if ctx.args.get("producer", "idempotent") == "transactional":
            producer = stack.enter_context(open_transaction(ctx.admin, ctx.topic("kc-txn"), topic, records=RECORDS))
        else:
            producer = idempotent_producer(ctx.admin, topic, records=RECORDS)
        result = ctx.call(DESCRIBE_PRODUCERS, DescribeProducersArgs(topic))
    observed, outcome = common(result)
    if outcome is None or outcome.error_code != 0 or "producers" not in outcome.fields:
        return observed
    producers = outcome.fields["producers"]
    mine = [p for p in producers if p.get("producer_id") == producer.producer_id]
    observed["producers"] = len(producers)
    observed["listed"] = bool(mine)
    if mine:
        for key in ("last_sequence", "producer_epoch", "coordinator_epoch", "current_txn_start_offset"):
            if key in mine[0]:
                observed[key] = mine[0][key]
    return observed
