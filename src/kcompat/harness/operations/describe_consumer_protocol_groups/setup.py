"""A group of KIP-848's consumer protocol as set-up: one member the super user joins with ConsumerGroupHeartbeat
(v0, kio's schema) subscribed to a new topic, which leaves again (member epoch -1) when the probe is done.

The coordinator makes the group on the first heartbeat; nothing keeps heartbeating, so the member lives for the
broker's session timeout (45 s by default), longer than a probe's call.  A broker that advertises the request
with the consumer protocol off (3.9 as kcompat boots it) answers UNSUPPORTED_VERSION: ``Disowned``, so the
claim's call is judged bare."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ...clients.base import error_name
from ...clients.kinds.wire.groups import coordinator, request, timedelta_ms
from ...matrix.probe import Disowned, ProbeContext, ProbeFailed
from ...waiting import attempts

CONSUMER_GROUP_HEARTBEAT = 68
SETTLE = 30.0
"""Seconds the join may take (the coordinator loading, __consumer_offsets made on first use)."""
REBALANCE_TIMEOUT_MS = 30_000
_RETRIABLE = frozenset({"COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "NOT_COORDINATOR"})


@contextmanager
def consumer_protocol_member(ctx: ProbeContext, group: str, topic: str) -> Iterator[str]:
    """Set-up: ``group`` with one member of the consumer protocol subscribed to ``topic``: its member id."""
    joined = _joined(ctx, group, topic)
    try:
        yield str(joined.member_id)
    finally:
        _heartbeat(ctx, group, member_id=str(joined.member_id), member_epoch=-1)


def _joined(ctx: ProbeContext, group: str, topic: str) -> Any:
    """The join's answer (the coordinator names the member), asked again (bounded) while it is not ready."""
    error = "COORDINATOR_NOT_AVAILABLE"
    for _ in attempts(SETTLE, interval=0.2):
        answer = _heartbeat(ctx, group, member_id="", member_epoch=0, rebalance_timeout=timedelta_ms(
            REBALANCE_TIMEOUT_MS), subscribed_topic_names=(topic,), topic_partitions=())
        error = error_name(int(answer.error_code))
        if error == "NONE":
            return answer
        if error not in _RETRIABLE:
            break
    failure = Disowned if error == "UNSUPPORTED_VERSION" else ProbeFailed
    raise failure(f"set-up: ConsumerGroupHeartbeat v0 joining new group {group} as the super user gave {error}")


def _heartbeat(ctx: ProbeContext, group: str, **values: Any) -> Any:
    found = coordinator(ctx.admin, group)
    if found.address is None:
        raise ProbeFailed(f"set-up: FindCoordinator for group {group} gave {found.error}")
    conn, _ = ctx.admin.connection(found.address)
    return conn.send(request(CONSUMER_GROUP_HEARTBEAT, 0, group_id=group, **values))
