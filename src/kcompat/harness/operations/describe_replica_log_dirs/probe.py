"""describeReplicaLogDirs of a new topic's replica: which log dir holds it, and is that the one describeLogDirs
lists it in?"""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_REPLICA_LOG_DIRS, DescribeReplicaLogDirsArgs, Replica
from ...matrix.probe import ProbeContext
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, await_log, call_keys, create


@probe(ProbeSpec("describe_replica_log_dirs",
                 COMMON | {"current_log_dir", "future_log_dir", "current_offset_lag", "in_listed_dir"},
                 {},
                 about="describeReplicaLogDirs of the replica of a new one-partition topic: `current_log_dir` "
                       "(a path, null if none), `future_log_dir`, `current_offset_lag`; `in_listed_dir` is whether "
                       "the current dir is the one the super user's DescribeLogDirs lists the partition in"))
def describe_replica_log_dirs(ctx: ProbeContext) -> dict[str, Any]:
    name = ctx.topic("kc-replicadir")
    broker = int(create(ctx, name).leader_id)
    listing = await_log(ctx, broker, name)
    result = ctx.call(DESCRIBE_REPLICA_LOG_DIRS, DescribeReplicaLogDirsArgs([Replica(name, 0, broker)]))
    outcome = result.resources[0] if result.resources else None
    observed = call_keys(result, outcome)
    if outcome is None or outcome.error_code != 0:
        return observed
    current = outcome.fields.get("current_log_dir")
    observed.update(current_log_dir=current, future_log_dir=outcome.fields.get("future_log_dir"),
                    current_offset_lag=outcome.fields.get("current_offset_lag"))
    if current is not None and listing is not None:
        observed["in_listed_dir"] = current == listing
    return observed
