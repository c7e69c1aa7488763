"""List topics through confluent-kafka's AdminClient."""

from __future__ import annotations

from ....operations.list_topics import LIST_TOPICS, ListTopicsArgs
from ...base import AdminResult
from ...confluent import ConfluentClient


@LIST_TOPICS.implement(ConfluentClient)
def list_topics(client: ConfluentClient, args: ListTopicsArgs, version: int | None) -> AdminResult:
    return client.list_topics(list_internal=args.list_internal)
