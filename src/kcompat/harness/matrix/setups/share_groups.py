"""Share groups as set-up (KIP-932): a topic with records, a new share group given start offsets, and the start
offsets read back, all by the super user.

A share group is made by AlterShareGroupOffsets (the broker creates the group, empty) and read back with
DescribeShareGroupOffsets: kio 0.5.0 has neither, so their v0 entities are declared beside this module
(``_share_offsets``).  A broker without them (before 4.0, or one whose share groups are off) can't have a share
group: ``made_share_group`` says so, and a probe whose call that broker does not refuse raises ``ProbeFailed``
(nothing it observes could be of a share group).  Every wait is bounded; a refusal is ``ProbeFailed``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kio.serial import entity_reader
from kio.static.primitive import i32, i64

from ...clients import error_name
from ...clients.kinds.wire.groups import coordinator
from ...errors import WireError
from ...waiting import attempts
from ..probe import Disowned, ProbeContext, ProbeFailed
from ..verdict import call_refused
from ._share_offsets import (
    ALTER_SHARE_GROUP_OFFSETS,
    DESCRIBE_SHARE_GROUP_OFFSETS,
    AlterPartition,
    AlterShareGroupOffsetsRequest,
    AlterShareGroupOffsetsResponse,
    AlterTopic,
    DescribeGroup,
    DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsResponse,
)
from .records import produce

SETTLE = 30.0
"""Seconds a set-up step may take (the share coordinator's state topic being created on first use)."""
RECORDS = 5
"""Records the super user writes to partition 0 of the share group's topic: start offsets 0 to 5 are in it."""
_RETRIABLE = frozenset({"COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "NOT_COORDINATOR",
                        "UNKNOWN_TOPIC_OR_PARTITION"})


def share_topic(ctx: ProbeContext) -> str:
    """Set-up: a new one-partition topic holding ``RECORDS`` records, as the super user."""
    topic = ctx.topic("kc-share")
    ctx.create_topic(topic)
    produce(ctx.admin, topic, [0] * RECORDS)
    return topic


def has_share_groups(ctx: ProbeContext) -> bool:
    """Whether the broker offers what makes and reads a share group (AlterShareGroupOffsets and
    DescribeShareGroupOffsets v0)."""
    offered = {r.api_key: r for r in ctx.cluster.api_versions}
    return all(key in offered and offered[key].min_version == 0
               for key in (ALTER_SHARE_GROUP_OFFSETS, DESCRIBE_SHARE_GROUP_OFFSETS))


def made_share_group(ctx: ProbeContext, topic: str, offsets: Mapping[int, int]) -> tuple[str, bool]:
    """Set-up: a new share group whose start offsets on ``topic`` are ``offsets`` (partition -> offset), as the
    super user: (group, whether it was made: not where the broker has no share groups)."""
    group = ctx.topic("kc-share-group")
    if not has_share_groups(ctx):
        return group, False
    request = AlterShareGroupOffsetsRequest(group_id=group, topics=(AlterTopic(topic_name=topic, partitions=tuple(
        AlterPartition(partition_index=i32(p), start_offset=i64(o)) for p, o in sorted(offsets.items()))),))
    errors: list[str] = []
    for _ in attempts(SETTLE, interval=0.2):
        response = _exchange(ctx, group, request, AlterShareGroupOffsetsResponse)
        errors = [error_name(int(e)) for e in (response.error_code,
                                               *(p.error_code for t in response.responses for p in t.partitions))
                  if int(e) != 0]
        if not errors:
            return group, True
        if not set(errors) <= _RETRIABLE:
            break
    failure = Disowned if errors[0] == "UNSUPPORTED_VERSION" else ProbeFailed  # offered v0, refused anyway
    raise failure(f"set-up: AlterShareGroupOffsets v0 of new share group {group} as the super user gave "
                  f"{errors[0]}")


def start_offsets(ctx: ProbeContext, group: str, topic: str, partitions: int) -> list[int | None] | None:
    """The group's start offset of each partition of ``topic`` (None: none) as the super user's
    DescribeShareGroupOffsets gives it; None where the broker has no share groups."""
    if not has_share_groups(ctx):
        return None
    request = DescribeShareGroupOffsetsRequest(groups=(DescribeGroup(group_id=group, topics=None),))
    error = "NONE"
    for _ in attempts(SETTLE, interval=0.2):
        (answer,) = _exchange(ctx, group, request, DescribeShareGroupOffsetsResponse).groups
        error = error_name(int(answer.error_code))
        if error not in _RETRIABLE:  # NONE, GROUP_ID_NOT_FOUND (no offsets: none left), or a refusal
            break
    if error not in ("NONE", "GROUP_ID_NOT_FOUND"):
        raise ProbeFailed(f"set-up: DescribeShareGroupOffsets of share group {group} as the super user gave {error}")
    found = {int(p.partition_index): int(p.start_offset) for t in answer.topics if t.topic_name == topic
             for p in t.partitions if int(p.error_code) == 0 and int(p.start_offset) >= 0}
    return [found.get(p) for p in range(partitions)]


def _exchange(ctx: ProbeContext, group: str, request: Any, response_type: type[Any]) -> Any:
    """One request kio has no schema of, to the group's coordinator, and its response decoded by the entity
    declared for it."""
    found = coordinator(ctx.admin, group)
    if found.address is None:
        raise ProbeFailed(f"set-up: FindCoordinator for share group {group} gave {found.error}")
    conn, _ = ctx.admin.connection(found.address)
    frame = conn.exchange(request)
    try:
        header, offset = entity_reader(response_type.__header_schema__)(frame.data, 0)
        response, _ = entity_reader(response_type)(frame.data, offset)
    except Exception as exc:  # kio raises plain ValueErrors on malformed data
        raise WireError(f"can't decode {response_type.__name__} v0 from {conn.address}: {exc}") from exc
    if header.correlation_id != frame.correlation_id:
        raise WireError(f"{conn.address} answered correlation id {header.correlation_id}, "
                        f"expected {frame.correlation_id}")
    return response


def judged_without_group(ctx: ProbeContext, made: bool, observed: Mapping[str, Any], what: str) -> None:
    """Where no share group could be made, only the call's refusal can be judged: a call the client made anyway
    (deleteShareGroups sends DeleteGroups, which every broker has) observed no share group, so ProbeFailed."""
    if not made and not call_refused(observed, ctx.client.kind):
        raise ProbeFailed(f"set-up: broker {ctx.cluster.spec.version} offers no AlterShareGroupOffsets v0 and "
                          f"DescribeShareGroupOffsets v0, so no share group could be made to {what}")
