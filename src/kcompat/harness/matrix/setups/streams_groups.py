"""Streams groups as set-up (KIP-1071): a live member of a new streams group, as the super user.

No admin call makes a streams group: only a member's StreamsGroupHeartbeat does, carrying the application's
topology.  The member here declares the smallest one (one subtopology, ``SUBTOPOLOGY``, reading one source
topic) and heartbeats (bounded) until the coordinator assigned it active tasks, then on its own until it leaves
(MemberEpoch -1).  A broker without StreamsGroupHeartbeat, or with streams groups off, can't have one:
``has_streams_groups`` says which, and a refusal is ``ProbeFailed``.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ...clients import error_name
from ...clients.kinds.wire.groups import coordinator
from ...clients.wire import WireClient
from ...waiting import attempts
from ..env import endpoint_of
from ..probe import Disowned, ProbeContext, ProbeFailed
from .members import Heartbeating
from .share_groups import SETTLE, call, offered

HEARTBEAT = "StreamsGroupHeartbeat"
SUBTOPOLOGY = "0"
"""The id of the member's one subtopology: its active tasks are named ``0:<partition>``."""
_RETRIABLE = frozenset({"COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "NOT_COORDINATOR"})


def has_streams_groups(ctx: ProbeContext) -> bool:
    """Whether the broker offers StreamsGroupHeartbeat at a version the codec defines (brokers 4.1+; on by
    default from 4.2, streams.version)."""
    return offered(ctx, HEARTBEAT) is not None


def streams_topic(ctx: ProbeContext) -> str:
    """Set-up: a new one-partition topic, the source topic of the member's subtopology."""
    topic = ctx.topic("kc-streams-source")
    ctx.create_topic(topic)
    return topic


@dataclass
class StreamsMember(Heartbeating):
    """A member of a streams group, heartbeating on its own client until it leaves."""

    group: str
    member_id: str
    version: int
    client: WireClient
    address: tuple[str, int]
    epoch: int = 0
    interval: float = 1.0
    active: list[dict[str, Any]] = field(default_factory=list)
    heartbeat_errors: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def beat(self, body: Mapping[str, Any]) -> Any:
        return call(self.client, self.address, HEARTBEAT, self.version,
                    {"group_id": self.group, "member_id": self.member_id, "endpoint_information_epoch": 0, **body})

    def periodic(self) -> dict[str, Any]:
        """A heartbeat reporting the tasks it owns."""
        return {"member_epoch": self.epoch, "active_tasks": self.active, "standby_tasks": [], "warmup_tasks": []}


def _join_body(topic: str) -> dict[str, Any]:
    """The first heartbeat: MemberEpoch 0 with the topology (one subtopology reading ``topic``)."""
    return {"member_epoch": 0, "rebalance_timeout": int(SETTLE * 1000), "process_id": str(uuid.uuid4()),
            "client_tags": [], "active_tasks": [], "standby_tasks": [], "warmup_tasks": [],
            "topology": {"epoch": 0, "subtopologies": [{
                "subtopology_id": SUBTOPOLOGY, "source_topics": [topic], "source_topic_regex": [],
                "state_changelog_topics": [], "repartition_sink_topics": [], "repartition_source_topics": [],
                "copartition_groups": []}]}}


def joined(ctx: ProbeContext, group: str, topic: str) -> StreamsMember:
    """Set-up: a new member of streams group ``group`` whose topology reads ``topic``, heartbeating until the
    coordinator assigned it active tasks (bounded); not yet heartbeating alone."""
    version = offered(ctx, HEARTBEAT)
    if version is None:
        raise ProbeFailed(f"set-up: broker {ctx.cluster.spec.version} offers no {HEARTBEAT}, so no streams "
                          f"group {group} can be made")
    client = WireClient(endpoint_of(ctx.cluster), timeout=SETTLE + 10)
    try:
        found = coordinator(client, group)
        if found.address is None:
            raise ProbeFailed(f"set-up: FindCoordinator for streams group {group} gave {found.error}")
        member = StreamsMember(group, uuid.uuid4().hex[:22], version, client, found.address)
        return _assigned(member, _join_body(topic))
    except BaseException:
        client.close()
        raise


def _assigned(member: StreamsMember, body: dict[str, Any]) -> StreamsMember:
    """Heartbeats (bounded) until the member has active tasks, the first with ``body``."""
    error = "no answer"
    for _ in attempts(SETTLE, interval=0.2):
        answer = member.beat(body)
        if (error := error_name(answer.error_code)) not in ("NONE", *_RETRIABLE):
            break
        if error == "NONE":
            member.epoch, member.interval = answer.member_epoch, max(answer.heartbeat_interval / 1000, 0.2)
            if answer.active_tasks is not None:
                member.active = [{"subtopology_id": t.subtopology_id, "partitions": list(t.partitions)}
                                 for t in answer.active_tasks]
            if member.active:
                return member
            body = {"member_epoch": member.epoch, "active_tasks": [], "standby_tasks": [], "warmup_tasks": []}
    failure = Disowned if error == "UNSUPPORTED_VERSION" else ProbeFailed  # offered, streams groups off
    raise failure(f"set-up: {HEARTBEAT} of a new member of streams group {member.group} gave no active tasks "
                  f"within {SETTLE:.0f}s (last: {error})")


@contextmanager
def streams_member(ctx: ProbeContext, group: str, topic: str) -> Iterator[StreamsMember]:
    """A live member of streams group ``group`` for the duration of the block, leaving when it ends."""
    member = joined(ctx, group, topic)
    try:
        member.start()
        yield member
        member.held()
    finally:
        member.leave()
