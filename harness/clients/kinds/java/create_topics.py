"""Create topics through the Java AdminClient in its sidecar (``ops/CreateTopics.java``)."""

from __future__ import annotations

from ....operations.create_topics import CREATE_TOPICS, CreateTopicsArgs
from ...base import AdminResult
from ...java import JavaClient


@CREATE_TOPICS.implement(JavaClient)
def create_topics(client: JavaClient, args: CreateTopicsArgs, version: int | None) -> AdminResult:
    return client.create_topics(args.topics, validate_only=args.validate_only)
