"""Create partitions through the wire client, at the cell's pinned request version where it has one: to the
controller (KIP-195), unless the arguments name another broker (to observe what it answers)."""

from __future__ import annotations

from typing import Any

from . import CREATE_PARTITIONS, CreatePartitionsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import TIMEOUT, WireClient, observed
from ...protocol import build_request, nested_type

API_KEY = 37


def _request(args: CreatePartitionsArgs, v: int, options: dict[str, bool]) -> Any:
    topic, assignment = (nested_type(API_KEY, v, n, topics=(), timeout=TIMEOUT, validate_only=False)
                         for n in ("CreatePartitionsTopic", "CreatePartitionsAssignment"))
    entities = tuple(topic(
        name=p.topic, count=p.total_count,
        assignments=None if p.assignments is None else tuple(assignment(broker_ids=tuple(ids)) for ids in p.assignments),
    ) for p in args.partitions)
    return build_request(API_KEY, v, topics=entities, timeout=TIMEOUT, **options)


@CREATE_PARTITIONS.implement(WireClient)
@observed
def create_partitions(client: WireClient, args: CreatePartitionsArgs, version: int | None) -> AdminResult:
    sent, response, lacking = client.send("create_partitions", API_KEY, version,
                                          lambda v, options: _request(args, v, options),
                                          {"validate_only": args.validate_only}, to_controller=True,
                                          broker=args.broker)
    outcomes = tuple(ResourceOutcome.of(str(r.name), int(r.error_code), r.error_message) for r in response.results)
    return AdminResult("create_partitions", client.kind, client.version, sent, outcomes, unsupported_options=lacking)
