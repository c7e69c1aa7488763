"""Delete topics through confluent-kafka's AdminClient (by name: librdkafka has no delete by topic id)."""

from __future__ import annotations

from ....operations.delete_topics import DELETE_TOPICS, DeleteTopicsArgs
from ...base import AdminResult
from ...confluent import ConfluentClient, _outcome


@DELETE_TOPICS.implement(ConfluentClient)
def delete_topics(client: ConfluentClient, args: DeleteTopicsArgs, version: int | None) -> AdminResult:
    if args.topic_ids:
        return AdminResult("delete_topics", client.kind, client.version, None, exception="NotImplementedError",
                           exception_message=f"confluent-kafka {client.version} has no AdminClient.delete_topics "
                                             "by topic id", librdkafka_version=client.librdkafka_version)
    return client._call("delete_topics", "DeleteTopics", client._admin.delete_topics, list(args.names),
                        {"operation_timeout": 30, "request_timeout": 30}, _outcome)
