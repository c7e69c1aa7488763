"""ElectLeaders through the wire client, to the controller, at the pinned version (v0 can only elect preferred)."""

from __future__ import annotations

from typing import Any


from . import ELECT_LEADERS, ELECTION_TYPES, ElectLeadersArgs, TopicPartition
from ...protocol import build_request, nested_type
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed

API_KEY = 43
TIMEOUT = 30_000
"""Milliseconds the broker may take."""


@ELECT_LEADERS.implement(WireClient)
@observed
def elect_leaders(client: WireClient, args: ElectLeadersArgs, version: int | None) -> AdminResult:
    """An unclean election at v0 is not sent (``UnsupportedOption``): v0 has no election type, only preferred."""
    def build(v: int, options: dict[str, bool]) -> Any:
        entity = nested_type(API_KEY, v, "TopicPartitions", topic_partitions=None, timeout=TIMEOUT,
                             election_type=0)
        topics: dict[str, list[int]] = {}
        for tp in args.partitions:
            topics.setdefault(tp.topic, []).append(tp.partition)
        return build_request(API_KEY, v, timeout=TIMEOUT, election_type=ELECTION_TYPES[args.election_type],
                             topic_partitions=tuple(entity(topic=t, partitions=tuple(ps))
                                                    for t, ps in sorted(topics.items())))

    sent, response, _ = client.send("elect_leaders", API_KEY, version, build,
                                     {"election_type": args.election_type != "preferred"}, to_controller=True)
    whole = int(getattr(response, "error_code", 0))  # v1+
    if whole:
        return AdminResult("elect_leaders", client.kind, client.version, sent,
                           tuple(ResourceOutcome.of(tp.label, whole) for tp in args.partitions))
    outcomes = tuple(ResourceOutcome.of(TopicPartition(str(t.topic), int(p.partition_id)).label, int(p.error_code),
                                        p.error_message)
                     for t in response.replica_election_results for p in t.partition_result)
    return AdminResult("elect_leaders", client.kind, client.version, sent, outcomes)
