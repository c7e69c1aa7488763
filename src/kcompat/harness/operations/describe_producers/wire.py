"""DescribeProducers through the wire client, to each partition's leader (at the cell's pinned version)."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_PRODUCERS, DescribeProducersArgs
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.routing import leader
from ...clients.wire import WireClient, observed

DESCRIBE_PRODUCERS_KEY = 61


def producer_fields(state: Any) -> dict[str, Any]:
    """One active producer under the neutral names (the same the Java sidecar writes: -1, "none", as null, as
    its OptionalInt and OptionalLong say it)."""
    return {"producer_id": int(state.producer_id), "producer_epoch": int(state.producer_epoch),
            "last_sequence": int(state.last_sequence), "last_timestamp": int(state.last_timestamp),
            "coordinator_epoch": _none_if_negative(int(state.coordinator_epoch)),
            "current_txn_start_offset": _none_if_negative(int(state.current_txn_start_offset))}


def _none_if_negative(value: int) -> int | None:
    return None if value < 0 else value


@DESCRIBE_PRODUCERS.implement(WireClient)
@observed
def describe_producers(client: WireClient, args: DescribeProducersArgs, version: int | None) -> AdminResult:
    """One request per partition, to its leader (the first broker while Metadata names none: it answers
    NOT_LEADER_OR_FOLLOWER, which is then the observation)."""
    outcomes = []
    sent: int | None = None
    for partition in args.partitions:
        def build(v: int, options: dict[str, bool], p: int = partition) -> Any:
            topic = nested_type(DESCRIBE_PRODUCERS_KEY, v, "TopicRequest", topics=())
            return build_request(DESCRIBE_PRODUCERS_KEY, v,
                                 topics=(topic(name=args.topic, partition_indexes=(p,)),))

        sent, response, _ = client.send("describe_producers", DESCRIBE_PRODUCERS_KEY, version, build, {},
                                         broker=leader(client, args.topic, partition))
        for topic in response.topics:
            for p in topic.partitions:
                outcomes.append(ResourceOutcome.of(
                    f"{topic.name}:{p.partition_index}", int(p.error_code), p.error_message,
                    producers=[producer_fields(s) for s in p.active_producers]))
    return AdminResult("describe_producers", client.kind, client.version, sent, tuple(outcomes), ("producers",))
