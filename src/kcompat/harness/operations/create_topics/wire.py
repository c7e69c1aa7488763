"""Create topics through the wire client, at the cell's pinned request version where it has one: to the
controller (ZooKeeper brokers only accept creates there), every response field the version has kept."""

from __future__ import annotations

from typing import Any

from . import CREATE_TOPICS, CreateTopicsArgs
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import TIMEOUT, WireClient, config_entry, observed, plain, result_fields
from ...protocol import build_request, nested_type

API_KEY = 19


def _request(args: CreateTopicsArgs, v: int, options: dict[str, bool]) -> Any:
    topic, assignment, config = (nested_type(API_KEY, v, n, topics=(), timeout=TIMEOUT) for n in
                                 ("CreatableTopic", "CreatableReplicaAssignment", "CreatableTopicConfig"))
    entities = tuple(topic(
        name=t.name,
        num_partitions=-1 if t.partitions is None or t.assignments else t.partitions,
        replication_factor=-1 if t.replication_factor is None or t.assignments else t.replication_factor,
        assignments=tuple(assignment(partition_index=p, broker_ids=tuple(ids))
                          for p, ids in sorted((t.assignments or {}).items())),
        configs=tuple(config(name=k, value=val) for k, val in sorted(t.configs.items())),
    ) for t in args.topics)
    return build_request(API_KEY, v, topics=entities, timeout=TIMEOUT, **options)


@CREATE_TOPICS.implement(WireClient)
@observed
def create_topics(client: WireClient, args: CreateTopicsArgs, version: int | None) -> AdminResult:
    sent, response, lacking = client.send("create_topics", API_KEY, version,
                                          lambda v, options: _request(args, v, options),
                                          {"validate_only": args.validate_only}, to_controller=True)
    outcomes = []
    for item in response.topics:
        raw = plain(item)
        fields = {k: raw[k] for k in result_fields(item)}
        if fields.get("configs") is not None:
            fields["configs"] = [config_entry(c) for c in fields["configs"]]
        outcomes.append(ResourceOutcome.of(str(item.name), int(item.error_code), raw.get("error_message"), **fields))
    return AdminResult("create_topics", client.kind, client.version, sent, tuple(outcomes),
                       result_fields(response.topics[0]) if response.topics else (), unsupported_options=lacking)
