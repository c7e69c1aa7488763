"""describeReplicaLogDirs through the wire client: DescribeLogDirs of the replicas' topics on each broker."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_REPLICA_LOG_DIRS, DescribeReplicaLogDirsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed
from ..describe_log_dirs.wire import API_KEY, BROKER_NOT_AVAILABLE, broker_addresses, log_dirs

FIELDS = ("current_log_dir", "current_offset_lag", "future_log_dir", "future_offset_lag")


@DESCRIBE_REPLICA_LOG_DIRS.implement(WireClient)
@observed
def describe_replica_log_dirs(client: WireClient, args: DescribeReplicaLogDirsArgs, version: int | None
                              ) -> AdminResult:
    """As kafka-clients does it: a replica no directory holds is answered with nulls, not an error."""
    client.require("describe_replica_log_dirs", API_KEY, version)  # a broker without the API: refused before any look-up
    addresses = broker_addresses(client)
    outcomes: list[ResourceOutcome] = []
    sent: int | None = None
    for broker in sorted({r.broker for r in args.replicas}):
        mine = [r for r in args.replicas if r.broker == broker]
        if broker not in addresses:
            outcomes += [ResourceOutcome.of(r.label, BROKER_NOT_AVAILABLE, f"no broker {broker} in Metadata")
                         for r in mine]
            continue
        topics: dict[str, list[int]] = {}
        for replica in mine:
            topics.setdefault(replica.topic, []).append(replica.partition)
        sent, response = log_dirs(client, "describe_replica_log_dirs", addresses[broker], topics, version)
        whole = int(getattr(response, "error_code", 0))
        for replica in mine:
            found: dict[str, Any] = dict.fromkeys(FIELDS)
            for directory in response.results if not whole else ():
                for topic in directory.topics:
                    for p in topic.partitions:
                        if str(topic.name) == replica.topic and int(p.partition_index) == replica.partition:
                            side = "future" if p.is_future_key else "current"
                            found[f"{side}_log_dir"] = str(directory.log_dir)
                            found[f"{side}_offset_lag"] = int(p.offset_lag)
            outcomes.append(ResourceOutcome.of(replica.label, whole, None, **found))
    return AdminResult("describe_replica_log_dirs", client.kind, client.version, sent, tuple(outcomes), FIELDS)
