"""AlterReplicaLogDirs through the wire client: one request to each replica's broker, at the pinned version."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import ALTER_REPLICA_LOG_DIRS, AlterReplicaLogDirsArgs, ReplicaMove
from ..describe_replica_log_dirs import Replica
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed
from ..describe_log_dirs.wire import BROKER_NOT_AVAILABLE, broker_addresses

API_KEY = 34


@ALTER_REPLICA_LOG_DIRS.implement(WireClient)
@observed
def alter_replica_log_dirs(client: WireClient, args: AlterReplicaLogDirsArgs, version: int | None) -> AdminResult:
    client.require("alter_replica_log_dirs", API_KEY, version)  # a broker without the API: refused before any look-up
    addresses = broker_addresses(client)
    outcomes: list[ResourceOutcome] = []
    sent: int | None = None
    for broker in sorted({m.replica.broker for m in args.moves}):
        mine = [m for m in args.moves if m.replica.broker == broker]
        if broker not in addresses:
            outcomes += [ResourceOutcome.of(m.replica.label, BROKER_NOT_AVAILABLE, f"no broker {broker} in Metadata")
                         for m in mine]
            continue
        sent, response, _ = client.send("alter_replica_log_dirs", API_KEY, version, _builder(mine), {},
                                         broker=addresses[broker])
        outcomes += [ResourceOutcome.of(Replica(str(t.topic_name), int(p.partition_index), broker).label,
                                        int(p.error_code))
                     for t in response.results for p in t.partitions]
    return AdminResult("alter_replica_log_dirs", client.kind, client.version, sent, tuple(outcomes))


def _builder(moves: list[ReplicaMove]) -> Callable[[int, dict[str, bool]], Any]:
    return lambda version, options: _request(version, moves)


def _request(version: int, moves: list[ReplicaMove]) -> Any:
    directory, topic = (nested_type(API_KEY, version, name, dirs=()) for name in
                        ("AlterReplicaLogDir", "AlterReplicaLogDirTopic"))
    by_dir: dict[str, dict[str, list[int]]] = {}
    for move in moves:
        by_dir.setdefault(move.log_dir, {}).setdefault(move.replica.topic, []).append(move.replica.partition)
    return build_request(API_KEY, version, dirs=tuple(
        directory(path=path, topics=tuple(topic(name=name, partitions=tuple(parts))
                                          for name, parts in sorted(topics.items())))
        for path, topics in sorted(by_dir.items())))
