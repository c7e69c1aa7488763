"""Create partitions through the Java AdminClient in its sidecar (``ops/CreatePartitions.java``)."""

from __future__ import annotations

from ....operations.create_partitions import CREATE_PARTITIONS, CreatePartitionsArgs
from ...base import AdminResult
from ...java import JavaClient


@CREATE_PARTITIONS.implement(JavaClient)
def create_partitions(client: JavaClient, args: CreatePartitionsArgs, version: int | None) -> AdminResult:
    return client.create_partitions(args.partitions, validate_only=args.validate_only)
