"""describeTopics by name as the cell's client, of a topic the super user made: the description set against the
super user's own Metadata of it."""

from __future__ import annotations

from typing import Any

from . import DESCRIBE_TOPICS, DescribeTopicsArgs
from ...matrix.probe import ProbeContext, ProbeFailed
from ...matrix.setups.topics import new_topic, topic_entry
from ...matrix.probes import ProbeSpec, probe
from ...matrix.probes._shared import COMMON, common

_NO_TOPIC_ID = "00000000-0000-0000-0000-000000000000"


def as_metadata(entry: Any) -> dict[int, dict[str, Any]]:
    """Each partition of a Metadata topic entry as the clients' descriptions give it (leader, replicas, ISR)."""
    return {int(p.partition_index): {"leader": int(p.leader_id), "replicas": [int(r) for r in p.replica_nodes],
                                     "isr": [int(r) for r in p.isr_nodes]} for p in entry.partitions}


def compared(described: list[dict[str, Any]], known: dict[int, dict[str, Any]]) -> dict[str, bool]:
    """Whether the described partitions' leaders, replicas and ISR are Metadata's (the same partitions too)."""
    by_index = {int(p["partition"]): p for p in described}
    same = set(by_index) == set(known)
    return {f"{key}_match" if key != "leader" else "leaders_match":
            same and all(by_index[i][key] == known[i][key] for i in known)
            for key in ("leader", "replicas", "isr")}


@probe(ProbeSpec("describe_topics", COMMON | {"partitions", "leaders_match", "replicas_match", "isr_match",
                                              "topic_id_matches"}, {},
                 about="describeTopics by name of a new one-partition topic the super user made (every client's "
                       "describe call: DescribeTopicPartitions or Metadata); `partitions` is the described count, "
                       "`leaders_match`, `replicas_match` and `isr_match` whether each partition's leader, replicas "
                       "and ISR are the super user's Metadata's, `topic_id_matches` whether the description's topic "
                       "id is Metadata's (only where both have one: brokers 2.8+, Metadata v10)"))
def describe_topics(ctx: ProbeContext) -> dict[str, Any]:
    """describeTopics of one new topic by name, compared with Metadata as the super user."""
    name = new_topic(ctx)
    entry = topic_entry(ctx, name)
    if entry is None:
        raise ProbeFailed(f"set-up: {name} left the super user's Metadata before the call")
    observed, outcome = common(ctx.call(DESCRIBE_TOPICS, DescribeTopicsArgs([name])))
    if outcome is None or outcome.error_code != 0 or outcome.exception:
        return observed
    fields = outcome.fields
    if "partitions" in fields:
        observed["partitions"] = fields["partitions"]
    if isinstance(fields.get("partition_info"), list):
        observed.update(compared(fields["partition_info"], as_metadata(entry)))
    known_id = str(getattr(entry, "topic_id", None) or _NO_TOPIC_ID)
    if known_id != _NO_TOPIC_ID and fields.get("topic_id") is not None:
        observed["topic_id_matches"] = fields["topic_id"] == known_id
    return observed
