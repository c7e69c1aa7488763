"""Create partitions through confluent-kafka's AdminClient."""

from __future__ import annotations

from ....operations.create_partitions import CREATE_PARTITIONS, CreatePartitionsArgs
from ...base import AdminResult
from ...confluent import ConfluentClient


@CREATE_PARTITIONS.implement(ConfluentClient)
def create_partitions(client: ConfluentClient, args: CreatePartitionsArgs, version: int | None) -> AdminResult:
    return client.create_partitions(args.partitions, validate_only=args.validate_only)
