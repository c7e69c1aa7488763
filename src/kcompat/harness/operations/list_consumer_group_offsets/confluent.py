"""A group's committed offsets through confluent-kafka's AdminClient (a ConsumerGroupTopicPartitions request)."""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future
from typing import Any

from . import LIST_CONSUMER_GROUP_OFFSETS, ListConsumerGroupOffsetsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import ConfluentClient
from ...clients.kinds.confluent.groups import OFFSET_INVALID, partition_outcomes, waited
from ...clients.kinds.confluent.shared import lacks, library


@LIST_CONSUMER_GROUP_OFFSETS.implement(ConfluentClient)
def list_consumer_group_offsets(client: ConfluentClient, args: ListConsumerGroupOffsetsArgs,
                                version: int | None) -> AdminResult:
    if (missing := lacks(client, "list_consumer_group_offsets", "list_consumer_group_offsets")) is not None:
        return missing
    partitions = (None if args.partitions is None
                  else [library().TopicPartition(t, p) for t, p in args.partitions])
    outcomes: list[ResourceOutcome] = []

    def describe(group: str, future: Future[Any]) -> ResourceOutcome:
        value, outcome = waited(group, future)
        if value is None:
            outcomes.append(outcome)
        else:
            outcomes.extend(partition_outcomes(value.topic_partitions, lambda tp: {
                "offset": None if tp.offset == OFFSET_INVALID or tp.offset < 0 else int(tp.offset),
                "metadata": getattr(tp, "metadata", None)}))
        return outcome

    result = client.call("list_consumer_group_offsets", "OffsetFetch", client.library.list_consumer_group_offsets,
                          [library().ConsumerGroupTopicPartitions(args.group, partitions)],
                          {"request_timeout": 30}, describe)
    return dataclasses.replace(result, resources=tuple(outcomes) if result.exception is None else (),
                               result_fields=("offset", "metadata"))
