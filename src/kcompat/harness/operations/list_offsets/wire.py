"""List offsets through the wire client: one ListOffsets per partition leader.

v0 answers a list of offsets (``old_style_offsets``: the one asked for, or
none) and no timestamp; v1+ one offset and its timestamp; v4+ the leader
epoch.  The max-timestamp spec exists from v7 (KIP-734), and a timestamp's
own offset from v1 (v0 answers segment offsets, which kafka-clients never asks
for): a version below can't express the query, so nothing is sent.
"""

from __future__ import annotations

from typing import Any

from . import LIST_OFFSETS, MAX_TIMESTAMP_SINCE, SPEC_TIMESTAMPS, ListOffsetsArgs
from ...protocol import build_request, nested_type, pick_version
from ...clients.base import AdminResult, ResourceOutcome
from ...clients.wire import WireClient, observed
from ...clients.kinds.wire.shared import by_leader, nothing_sent

LIST_OFFSETS_KEY = 2


def _answer(partition: Any) -> dict[str, Any]:
    """One partition's answer under the neutral names (fields its version lacks left out)."""
    if hasattr(partition, "old_style_offsets"):
        offsets = [int(o) for o in partition.old_style_offsets]
        return {"offset": offsets[0] if offsets else -1}
    answer = {"offset": int(partition.offset), "timestamp": int(partition.timestamp)}
    if hasattr(partition, "leader_epoch"):
        answer["leader_epoch"] = int(partition.leader_epoch)
    return answer


@LIST_OFFSETS.implement(WireClient)
@observed
def list_offsets(client: WireClient, args: ListOffsetsArgs, version: int | None) -> AdminResult:
    offered = client.api_versions()
    if any(q.spec == "max_timestamp" for q in args.queries) and LIST_OFFSETS_KEY in offered:
        chosen = version if version is not None else pick_version(LIST_OFFSETS_KEY, offered)
        if chosen < MAX_TIMESTAMP_SINCE:
            return nothing_sent(client, "list_offsets", f"ListOffsets v{chosen} can't ask for the max timestamp",
                                ("max_timestamp",))
    if any(q.spec == "timestamp" for q in args.queries) and LIST_OFFSETS_KEY in offered:
        chosen = version if version is not None else pick_version(LIST_OFFSETS_KEY, offered)
        if chosen < 1:
            return nothing_sent(client, "list_offsets", "ListOffsets v0 can't ask for a timestamp's offset",
                                ("timestamp",))
    timestamps = {(q.topic, q.partition): SPEC_TIMESTAMPS.get(q.spec, q.timestamp if q.timestamp is not None else -1)
                  for q in args.queries}
    outcomes: list[ResourceOutcome] = []
    sent: int | None = None
    fields: tuple[str, ...] = ()
    for leader, partitions in by_leader(client, timestamps).items():
        def build(v: int, options: dict[str, bool], these: list[tuple[str, int]] = partitions) -> Any:
            empty = {"replica_id": -1, "topics": (), "isolation_level": 0}
            topic = nested_type(LIST_OFFSETS_KEY, v, "ListOffsetsTopic", **empty)
            partition = nested_type(LIST_OFFSETS_KEY, v, "ListOffsetsPartition", **empty)
            extra = {"max_num_offsets": 1} if v == 0 else ({"current_leader_epoch": -1} if v >= 4 else {})
            names = sorted({t for t, _ in these})
            return build_request(LIST_OFFSETS_KEY, v, replica_id=-1, isolation_level=0, topics=tuple(topic(
                name=name, partitions=tuple(partition(partition_index=i, timestamp=timestamps[(t, i)], **extra)
                                            for t, i in these if t == name)) for name in names))

        sent, response, _ = client.send("list_offsets", LIST_OFFSETS_KEY, version, build, {}, broker=leader)
        for t in response.topics:
            for p in t.partitions:
                answer = _answer(p)
                fields = tuple(answer)
                outcomes.append(ResourceOutcome.of(f"{t.name}:{p.partition_index}", int(p.error_code), None,
                                                   **answer))
    return AdminResult("list_offsets", client.kind, client.version, sent, tuple(outcomes), fields)
