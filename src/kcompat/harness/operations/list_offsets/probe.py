"""ListOffsets of one spec on a new topic's partition 0 as the cell's client, after the super user produced
five records with known create times out of order."""

from __future__ import annotations

import time
from typing import Any

from . import LIST_OFFSETS, ListOffsetsArgs, OffsetQuery
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.setups.records import produce
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common
from ...matrix.setups.topics import new_topic

DELTAS = (0, 40_000, 10_000, 20_000, 30_000)
"""Each record's create time after the first's (ms): the largest is offset 1, not the last (offset 4), and the
first at or after +15 s is offset 1 too."""
AT = 15_000
"""The timestamp spec's query, after the first record's time."""


@probe(ProbeSpec("list_offsets", COMMON | {"offset", "timestamp_matches"}, {"spec": str, "as_user": str,
                                                                            "topic_acl": str},
                 about="ListOffsets of `spec` (earliest, latest, timestamp: the first record at or after +15 s, "
                       "max_timestamp) on a new topic whose five records (offsets 0-4) the super user produced "
                       "with create times +0, +40, +10, +20, +30 s; `offset` as returned, `timestamp_matches` "
                       "whether the timestamp returned is the create time of the record at that offset (absent "
                       "where none is returned, -1)"))
def list_offsets(ctx: ProbeContext) -> dict[str, Any]:
    """ListOffsets of one spec; the offset and whether its timestamp is the record's."""
    spec = ctx.args.get("spec", "latest")
    if spec not in ("earliest", "latest", "timestamp", "max_timestamp"):
        raise ProbeFailed(f"list_offsets asks earliest, latest, timestamp or max_timestamp, not {spec!r}")
    name = new_topic(ctx)
    base = int(time.time() * 1000) - 60_000
    times = [base + d for d in DELTAS]
    produce(ctx.admin, name, times)
    query = OffsetQuery(name, 0, spec, base + AT if spec == "timestamp" else None)
    observed, outcome = common(ctx.call(LIST_OFFSETS, ListOffsetsArgs([query])))
    if outcome is not None and outcome.error_code == 0 and "offset" in outcome.fields:
        offset = outcome.fields["offset"]
        observed["offset"] = offset
        timestamp = outcome.fields.get("timestamp")
        if isinstance(timestamp, int) and timestamp >= 0:
            observed["timestamp_matches"] = isinstance(offset, int) and 0 <= offset < len(times) \
                and times[offset] == timestamp
    return observed
