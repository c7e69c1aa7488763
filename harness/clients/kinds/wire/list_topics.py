"""List topics through the wire client, at the cell's pinned request version where it has one."""

from __future__ import annotations

from ....operations.list_topics import LIST_TOPICS, ListTopicsArgs
from ...base import AdminResult
from ...wire import WireClient


@LIST_TOPICS.implement(WireClient)
def list_topics(client: WireClient, args: ListTopicsArgs, version: int | None) -> AdminResult:
    return client.list_topics(list_internal=args.list_internal, version=version)
