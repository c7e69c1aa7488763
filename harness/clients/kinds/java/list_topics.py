"""List topics through the Java AdminClient in its sidecar (``ops/ListTopics.java``)."""

from __future__ import annotations

from ....operations.list_topics import LIST_TOPICS, ListTopicsArgs
from ...base import AdminResult
from ...java import JavaClient


@LIST_TOPICS.implement(JavaClient)
def list_topics(client: JavaClient, args: ListTopicsArgs, version: int | None) -> AdminResult:
    return client.list_topics(list_internal=args.list_internal)
