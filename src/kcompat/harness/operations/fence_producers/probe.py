"""fenceProducers of a transactional id whose producer holds a transaction open; is that producer fenced?"""

from __future__ import annotations

from typing import Any

from . import FENCE_PRODUCERS, FenceProducersArgs
from ...matrix.probe import ProbeContext
from ...matrix.setups.producers import end_transaction, open_transaction
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common

FENCED = frozenset({"PRODUCER_FENCED", "INVALID_PRODUCER_EPOCH"})
"""What a coordinator answers a producer whose epoch a newer InitProducerId replaced (PRODUCER_FENCED from 2.7,
KIP-588; INVALID_PRODUCER_EPOCH before)."""


@probe(ProbeSpec("fence_producers", COMMON | {"fenced", "old_producer_error", "same_producer", "epoch_bumped"},
                 {},
                 about="fenceProducers of a transactional id whose transaction the super user's producer holds "
                       "open; then that producer tries to commit with its old epoch: `old_producer_error` is the "
                       "coordinator's answer and `fenced` whether it is PRODUCER_FENCED or INVALID_PRODUCER_EPOCH; "
                       "`same_producer` and `epoch_bumped` compare the call's producer id and epoch with the old"))
def fence_producers(ctx: ProbeContext) -> dict[str, Any]:
    topic = ctx.topic("kc-txn-topic")
    ctx.create_topic(topic)
    with open_transaction(ctx.admin, ctx.topic("kc-txn"), topic) as producer:
        result = ctx.call(FENCE_PRODUCERS, FenceProducersArgs([producer.transactional_id or ""]))
        observed, outcome = common(result)
        old = end_transaction(ctx.admin, producer, commit=True)
    observed["old_producer_error"] = old
    observed["fenced"] = old in FENCED
    if outcome is not None and outcome.error_code == 0:
        if "producer_id" in outcome.fields:
            observed["same_producer"] = outcome.fields["producer_id"] == producer.producer_id
        if "producer_epoch" in outcome.fields:
            observed["epoch_bumped"] = outcome.fields["producer_epoch"] > producer.producer_epoch
    return observed
