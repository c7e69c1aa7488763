"""Describe topics through confluent-kafka's AdminClient (librdkafka sends Metadata: it has no
DescribeTopicPartitions), with each partition's leader, replicas and ISR and the topic id its
TopicDescription carries."""

from __future__ import annotations

import dataclasses
import uuid
from concurrent.futures import Future
from typing import Any

from . import DESCRIBE_TOPICS, DescribeTopicsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import ConfluentClient, resource_outcome
from ...clients.kinds.confluent.shared import lacks, library

_BITS = (1 << 64) - 1


def topic_id_text(topic_id: Any) -> str | None:
    """A confluent Uuid as the usual UUID text (the other clients' form); None for the all-zero id (none given)."""
    if topic_id is None:
        return None
    value = ((topic_id.get_most_significant_bits() & _BITS) << 64) | (topic_id.get_least_significant_bits() & _BITS)
    return str(uuid.UUID(int=value)) if value else None


def description(topic: Any) -> dict[str, Any]:
    """The fields of a TopicDescription every client's description has: partitions, leaders, replicas, ISR, id."""
    info = [{"partition": int(p.id), "leader": -1 if p.leader is None else int(p.leader.id),
             "replicas": [int(n.id) for n in p.replicas], "isr": [int(n.id) for n in p.isr]}
            for p in sorted(topic.partitions, key=lambda p: int(p.id))]
    return {"partitions": len(topic.partitions), "topic_id": topic_id_text(getattr(topic, "topic_id", None)),
            "partition_info": info}


@DESCRIBE_TOPICS.implement(ConfluentClient)
def describe_topics(client: ConfluentClient, args: DescribeTopicsArgs, version: int | None) -> AdminResult:
    if (missing := lacks(client, "describe_topics", "describe_topics")) is not None:
        return missing

    def describe(name: str, future: Future[Any]) -> ResourceOutcome:
        outcome = resource_outcome(name, future)
        return dataclasses.replace(outcome, fields=description(future.result())) if outcome.error_code == 0 \
            else outcome

    return client.call("describe_topics", "DescribeTopicPartitions", client.library.describe_topics,
                        library().TopicCollection(list(args.names)), {"request_timeout": 30}, describe)
