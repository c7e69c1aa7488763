"""Alter a group's committed offsets through confluent-kafka's AdminClient (KIP-396)."""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future
from typing import Any

from . import ALTER_CONSUMER_GROUP_OFFSETS, AlterConsumerGroupOffsetsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.groups import partition_outcomes, waited
from ...clients.kinds.confluent.shared import lacks, library


@ALTER_CONSUMER_GROUP_OFFSETS.implement(ConfluentClient)
def alter_consumer_group_offsets(client: ConfluentClient, args: AlterConsumerGroupOffsetsArgs,
                                 version: int | None) -> AdminResult:
    if (missing := lacks(client, "alter_consumer_group_offsets", "alter_consumer_group_offsets")) is not None:
        return missing
    outcomes: list[ResourceOutcome] = []

    def describe(group: str, future: Future[Any]) -> ResourceOutcome:
        value, outcome = waited(group, future)
        if value is None:
            outcomes.append(outcome)
        else:
            outcomes.extend(partition_outcomes(value.topic_partitions, lambda tp: {}))
        return outcome

    offsets = [library().TopicPartition(t, p, o) for t, p, o in args.offsets]
    result = client.call("alter_consumer_group_offsets", "OffsetCommit", client.library.alter_consumer_group_offsets,
                          [library().ConsumerGroupTopicPartitions(args.group, offsets)],
                          {"request_timeout": 30}, describe)
    return dataclasses.replace(result, resources=tuple(outcomes) if result.exception is None else ())
