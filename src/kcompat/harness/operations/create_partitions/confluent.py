"""Create partitions through confluent-kafka's AdminClient."""

from __future__ import annotations

from typing import Any

from . import CREATE_PARTITIONS, CreatePartitionsArgs
from ...clients.base import AdminResult, NewPartitions
from ...clients.confluent import ConfluentClient, resource_outcome
from ...clients.kinds.confluent.shared import library


def _new(p: NewPartitions) -> Any:
    ck = library().admin
    if p.assignments is None:  # an explicit None is refused as a bad assignment
        return ck.NewPartitions(p.topic, p.total_count)
    return ck.NewPartitions(p.topic, p.total_count, replica_assignment=[list(ids) for ids in p.assignments])


@CREATE_PARTITIONS.implement(ConfluentClient)
def create_partitions(client: ConfluentClient, args: CreatePartitionsArgs, version: int | None) -> AdminResult:
    return client.call("create_partitions", "CreatePartitions", client.library.create_partitions,
                       [_new(p) for p in args.partitions], {"validate_only": args.validate_only, "request_timeout": 30},
                       resource_outcome)
