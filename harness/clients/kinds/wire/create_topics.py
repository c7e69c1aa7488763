"""Create topics through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

from ....operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from ...base import AdminResult
from ...wire import WireClient


@CREATE_TOPICS.implement(WireClient)
def create_topics(client: WireClient, args: CreateTopicsArgs, version: int | None) -> AdminResult:
    return client.create_topics(args.topics, validate_only=args.validate_only, version=version)
