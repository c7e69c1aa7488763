"""Create topics through confluent-kafka's AdminClient."""

from __future__ import annotations

from typing import Any

from . import CREATE_TOPICS, CreateTopicsArgs
from ...clients.base import AdminResult, NewTopic
from ...clients.confluent import ConfluentClient, resource_outcome
from ...clients.kinds.confluent.shared import library


def _new(topic: NewTopic) -> Any:
    ck = library().admin
    if topic.assignments:
        assignment = [list(topic.assignments[p]) for p in sorted(topic.assignments)]
        # librdkafka wants the partition count beside an assignment (it still sends -1 on the wire)
        return ck.NewTopic(topic.name, len(assignment), replica_assignment=assignment, config=dict(topic.configs))
    return ck.NewTopic(topic.name, -1 if topic.partitions is None else topic.partitions,
                       -1 if topic.replication_factor is None else topic.replication_factor, config=dict(topic.configs))


@CREATE_TOPICS.implement(ConfluentClient)
def create_topics(client: ConfluentClient, args: CreateTopicsArgs, version: int | None) -> AdminResult:
    return client.call("create_topics", "CreateTopics", client.library.create_topics, [_new(t) for t in args.topics],
                       {"validate_only": args.validate_only, "request_timeout": 30}, resource_outcome)
