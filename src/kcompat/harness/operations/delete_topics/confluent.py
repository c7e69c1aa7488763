"""Delete topics through confluent-kafka's AdminClient (by name: librdkafka has no delete by topic id)."""

from __future__ import annotations

from . import DELETE_TOPICS, DeleteTopicsArgs
from ...clients.base import AdminResult
from ...clients.confluent import ConfluentClient, resource_outcome


@DELETE_TOPICS.implement(ConfluentClient)
def delete_topics(client: ConfluentClient, args: DeleteTopicsArgs, version: int | None) -> AdminResult:
    if args.topic_ids:
        return AdminResult("delete_topics", client.kind, client.version, None, exception="NotImplementedError",
                           exception_message=f"confluent-kafka {client.version} has no AdminClient.delete_topics "
                                             "by topic id", librdkafka_version=client.librdkafka_version)
    return client.call("delete_topics", "DeleteTopics", client.library.delete_topics, list(args.names),
                        {"operation_timeout": 30, "request_timeout": 30}, resource_outcome)
