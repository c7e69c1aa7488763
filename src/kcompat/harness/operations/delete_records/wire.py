"""Delete records through the wire client: one DeleteRecords per partition leader."""

from __future__ import annotations

from typing import Any

from . import DELETE_RECORDS, DeleteRecordsArgs
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import TIMEOUT, WireClient, observed
from ...clients.kinds.wire.shared import by_leader

DELETE_RECORDS_KEY = 21


@DELETE_RECORDS.implement(WireClient)
@observed
def delete_records(client: WireClient, args: DeleteRecordsArgs, version: int | None) -> AdminResult:
    offsets = {(p.topic, p.partition): p.offset for p in args.before}
    outcomes: list[ResourceOutcome] = []
    sent: int | None = None
    for leader, partitions in by_leader(client, offsets).items():
        def build(v: int, options: dict[str, bool], these: list[tuple[str, int]] = partitions) -> Any:
            empty = {"topics": (), "timeout": TIMEOUT}
            topic = nested_type(DELETE_RECORDS_KEY, v, "DeleteRecordsTopic", **empty)
            partition = nested_type(DELETE_RECORDS_KEY, v, "DeleteRecordsPartition", **empty)
            names = sorted({t for t, _ in these})
            return build_request(DELETE_RECORDS_KEY, v, timeout=TIMEOUT, topics=tuple(topic(name=name, partitions=tuple(
                partition(partition_index=i, offset=offsets[(t, i)]) for t, i in these if t == name))
                for name in names))

        sent, response, _ = client.send("delete_records", DELETE_RECORDS_KEY, version, build, {}, broker=leader)
        outcomes += [ResourceOutcome.of(f"{t.name}:{p.partition_index}", int(p.error_code), None,
                                        low_watermark=int(p.low_watermark))
                     for t in response.topics for p in t.partitions]
    return AdminResult("delete_records", client.kind, client.version, sent, tuple(outcomes), ("low_watermark",))
