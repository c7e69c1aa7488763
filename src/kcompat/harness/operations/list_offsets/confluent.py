"""List offsets through confluent-kafka's AdminClient (list_offsets: 2.3+)."""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future
from typing import Any

from . import LIST_OFFSETS, ListOffsetsArgs, OffsetQuery
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import ConfluentClient, resource_outcome
from ...clients.kinds.confluent.shared import lacks, library


def _spec(query: OffsetQuery) -> Any:
    if query.spec == "timestamp":
        return library().admin.OffsetSpec.for_timestamp(query.timestamp if query.timestamp is not None else -1)
    return getattr(library().admin.OffsetSpec, query.spec)()


def _listed(partition: Any, future: Future[Any]) -> ResourceOutcome:
    outcome = resource_outcome(f"{partition.topic}:{partition.partition}", future)
    if outcome.error_code != 0 or outcome.exception is not None:
        return outcome
    info = future.result()
    fields = {"offset": int(info.offset), "timestamp": int(info.timestamp)}
    if getattr(info, "leader_epoch", None) is not None:
        fields["leader_epoch"] = int(info.leader_epoch)
    return ResourceOutcome.of(outcome.resource, 0, None, **fields)


@LIST_OFFSETS.implement(ConfluentClient)
def list_offsets(client: ConfluentClient, args: ListOffsetsArgs, version: int | None) -> AdminResult:
    if (missing := lacks(client, "list_offsets", "list_offsets")) is not None:
        return missing
    queries = {library().TopicPartition(q.topic, q.partition): _spec(q) for q in args.queries}
    result = client.call("list_offsets", "ListOffsets", client.library.list_offsets, queries,
                          {"request_timeout": 30}, _listed)
    return result if result.exception else dataclasses.replace(
        result, result_fields=("offset", "timestamp", "leader_epoch"))
