"""alterReplicaLogDirs of a new topic's replica to its broker's other log dir, and where it is afterwards."""

from __future__ import annotations

from typing import Any

from . import ALTER_REPLICA_LOG_DIRS, AlterReplicaLogDirsArgs, ReplicaMove
from ..describe_replica_log_dirs import Replica
from ...waiting import attempts
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, SETTLE, await_log, call_keys, create, dir_holding, log_dirs_of


@probe(ProbeSpec("alter_replica_log_dirs", COMMON | {"moved", "log_dirs"}, {},
                 about="alterReplicaLogDirs of a new one-partition topic's replica to the other log dir of its "
                       "broker (a cluster with `log_dirs = 2`); `moved` is whether the super user's DescribeLogDirs "
                       "then lists it in that dir (awaited, bounded); `log_dirs` is how many dirs the broker has"))
def alter_replica_log_dirs(ctx: ProbeContext) -> dict[str, Any]:
    name = ctx.topic("kc-movedir")
    broker = int(create(ctx, name).leader_id)
    current = await_log(ctx, broker, name)
    dirs = [o.resource.split(":", 1)[1] for o in log_dirs_of(ctx, broker)]
    others = [d for d in dirs if d != current]
    if current is None or not others:
        raise ProbeFailed(f"set-up: broker {broker} reports log dirs {dirs}, {name} in {current}: the move needs a "
                          "second log dir (cluster log_dirs = 2)")
    result = ctx.call(ALTER_REPLICA_LOG_DIRS, AlterReplicaLogDirsArgs([ReplicaMove(Replica(name, 0, broker),
                                                                                   others[0])]))
    outcome = result.resources[0] if result.resources else None
    observed = call_keys(result, outcome)
    observed["log_dirs"] = len(dirs)
    moved = False
    if outcome is not None and outcome.error_code == 0 and not result.exception:
        for _ in attempts(SETTLE, interval=0.2):
            if moved := dir_holding(ctx, broker, name) == others[0]:
                break
    observed["moved"] = moved
    return observed
