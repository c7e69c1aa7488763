"""Delete records through confluent-kafka's AdminClient (delete_records: 2.4+)."""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future
from typing import Any

from . import DELETE_RECORDS, DeleteRecordsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.confluent import ConfluentClient, resource_outcome
from ...clients.kinds.confluent.shared import lacks, library


def _deleted(partition: Any, future: Future[Any]) -> ResourceOutcome:
    outcome = resource_outcome(f"{partition.topic}:{partition.partition}", future)
    if outcome.error_code != 0 or outcome.exception is not None:
        return outcome
    return ResourceOutcome.of(outcome.resource, 0, None, low_watermark=int(future.result().low_watermark))


@DELETE_RECORDS.implement(ConfluentClient)
def delete_records(client: ConfluentClient, args: DeleteRecordsArgs, version: int | None) -> AdminResult:
    if (missing := lacks(client, "delete_records", "delete_records")) is not None:
        return missing
    partitions = [library().TopicPartition(p.topic, p.partition, p.offset) for p in args.before]
    result = client.call("delete_records", "DeleteRecords", client.library.delete_records, partitions,
                          {"operation_timeout": 30, "request_timeout": 30}, _deleted)
    return result if result.exception else dataclasses.replace(result, result_fields=("low_watermark",))
