"""describeLogDirs of the broker holding a new topic's partition: is the partition listed, and with its size?"""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_LOG_DIRS, DescribeLogDirsArgs
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, await_log, call_keys, create

VOLUME = ("total_bytes", "usable_bytes")


@probe(ProbeSpec("describe_log_dirs", COMMON | {"listed", "size", "offset_lag", "is_future", "log_dirs", *VOLUME},
                 {},
                 about="describeLogDirs of the broker holding a new one-partition topic's replica: `listed` is "
                       "whether a log dir of it lists the partition (not as a future log), with its `size`, "
                       "`offset_lag` and `is_future`; `log_dirs` is how many dirs it described; `total_bytes` and "
                       "`usable_bytes` (KIP-827, DescribeLogDirs v4) of that dir where the client gives them"))
def describe_log_dirs(ctx: ProbeContext) -> dict[str, Any]:
    name = ctx.topic("kc-logdirs")
    broker = int(create(ctx, name).leader_id)
    await_log(ctx, broker, name)
    result = ctx.call(DESCRIBE_LOG_DIRS, DescribeLogDirsArgs([broker]))
    holding = [(outcome, replica) for outcome in result.resources
               for replica in outcome.fields.get("replicas") or ()
               if replica["topic"] == name and replica["partition"] == 0 and not replica["is_future"]]
    observed = call_keys(result, holding[0][0] if holding else None)
    observed["log_dirs"] = sum(1 for o in result.resources if o.error_code == 0)
    observed["listed"] = bool(holding)
    if holding:
        outcome, replica = holding[0]
        observed.update(size=replica["size"], offset_lag=replica["offset_lag"], is_future=replica["is_future"])
        observed.update({k: outcome.fields[k] for k in VOLUME if k in outcome.fields})
    return observed
