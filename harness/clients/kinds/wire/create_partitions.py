"""Create partitions through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

from ....operations.create_partitions import CREATE_PARTITIONS, CreatePartitionsArgs
from ...base import AdminResult
from ...wire import WireClient


@CREATE_PARTITIONS.implement(WireClient)
def create_partitions(client: WireClient, args: CreatePartitionsArgs, version: int | None) -> AdminResult:
    return client.create_partitions(args.partitions, validate_only=args.validate_only, version=version,
                                    broker=args.broker)
