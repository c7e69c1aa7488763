"""abortTransaction of a transaction the super user's producer holds open: is the partition's data stable again?"""

from __future__ import annotations

from typing import Any

from . import ABORT_TRANSACTION, AbortTransactionArgs
from ...waiting import attempts
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.setups.producers import coordinator_epoch, offsets, open_transaction
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, common


@probe(ProbeSpec("abort_transaction", COMMON | {"aborted"}, {},
                 about="abortTransaction (a WriteTxnMarkers abort) of the transaction the super user's producer holds "
                       "open on partition 0 of a new topic, with its producer id and epoch and the coordinator "
                       "epoch of its transactional id; `aborted`: the partition's last stable offset reaches its high "
                       "watermark (bounded wait), which an open transaction holds back"))
def abort_transaction(ctx: ProbeContext) -> dict[str, Any]:
    topic = ctx.topic("kc-txn-topic")
    ctx.create_topic(topic)
    with open_transaction(ctx.admin, ctx.topic("kc-txn"), topic) as producer:
        assert producer.transactional_id is not None
        stable, high = offsets(ctx.admin, topic, producer.partition)
        if stable >= high:
            raise ProbeFailed(f"set-up: the open transaction does not hold back {topic}-0's last stable offset "
                              f"({stable}, high watermark {high})")
        result = ctx.call(ABORT_TRANSACTION, AbortTransactionArgs(
            topic, producer.partition, producer.producer_id, producer.producer_epoch,
            coordinator_epoch(ctx.admin, producer.transactional_id)))
        observed, _ = common(result)
        aborted = False
        for _ in attempts(SETTLE if observed.get("error") == "NONE" else 0, interval=0.2):
            stable, high = offsets(ctx.admin, topic, producer.partition)
            if (aborted := stable >= high):
                break
        observed["aborted"] = aborted
    return observed
