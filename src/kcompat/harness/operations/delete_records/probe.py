"""DeleteRecords of a new topic's first records as the cell's client, after the super user produced them."""

from __future__ import annotations

import time
from typing import Any

from . import DELETE_RECORDS, DeleteRecordsArgs, PartitionOffset
from ...matrix.probe import ProbeContext
from ...matrix.setups.records import produce
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common
from ...matrix.setups.topics import new_topic, offset_as_admin


@probe(ProbeSpec("delete_records", COMMON | {"low_watermark", "earliest_after"},
                 {"records": int, "before": int, "as_user": str, "topic_acl": str},
                 about="DeleteRecords before offset `before` (default 2) of a new topic's partition 0 after the "
                       "super user produced `records` (default 5); `low_watermark` is the call's result, "
                       "`earliest_after` the earliest offset ListOffsets then gives the super user"))
def delete_records(ctx: ProbeContext) -> dict[str, Any]:
    """DeleteRecords of produced records; the result's low watermark and the partition's earliest offset after."""
    name = new_topic(ctx)
    count = int(ctx.args.get("records", 5))
    now = int(time.time() * 1000)
    produce(ctx.admin, name, [now - 1000 * (count - i) for i in range(count)])
    result = ctx.call(DELETE_RECORDS, DeleteRecordsArgs([PartitionOffset(name, 0, int(ctx.args.get("before", 2)))]))
    observed, outcome = common(result)
    if outcome is not None and "low_watermark" in outcome.fields:
        observed["low_watermark"] = outcome.fields["low_watermark"]
    observed["earliest_after"] = offset_as_admin(ctx, name, "earliest")
    return observed
