"""List topics through confluent-kafka's AdminClient: librdkafka lists every topic (no option to hide
internal ones: reported, never dropped silently)."""

from __future__ import annotations

from . import LIST_TOPICS, ListTopicsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.shared import library


@LIST_TOPICS.implement(ConfluentClient)
def list_topics(client: ConfluentClient, args: ListTopicsArgs, version: int | None) -> AdminResult:
    lacking = () if args.list_internal else ("list_internal",)
    mark = client.mark()
    try:
        metadata = client.library.list_topics(timeout=30)
    except library().KafkaException as exc:
        return AdminResult("list_topics", client.kind, client.version, client.request_version(mark, "Metadata"),
                           exception=type(exc).__name__, exception_message=str(exc),
                           unsupported_options=lacking, librdkafka_version=client.librdkafka_version)
    outcomes = []
    for name in sorted(metadata.topics):
        topic = metadata.topics[name]
        code = int(topic.error.code()) if topic.error is not None else 0
        outcomes.append(ResourceOutcome.of(name, code, None, partitions=len(topic.partitions)))
    return AdminResult("list_topics", client.kind, client.version, client.request_version(mark, "Metadata"),
                       tuple(outcomes), ("partitions",), unsupported_options=lacking,
                       librdkafka_version=client.librdkafka_version)
