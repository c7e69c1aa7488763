"""Create topics through confluent-kafka's AdminClient."""

from __future__ import annotations

from ....operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from ...base import AdminResult
from ...confluent import ConfluentClient


@CREATE_TOPICS.implement(ConfluentClient)
def create_topics(client: ConfluentClient, args: CreateTopicsArgs, version: int | None) -> AdminResult:
    return client.create_topics(args.topics, validate_only=args.validate_only)
