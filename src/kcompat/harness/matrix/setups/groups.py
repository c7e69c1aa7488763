"""Consumer groups as set-up: offsets committed as no member, a live member of the consumer protocol, and
what the super user reads back (committed offsets, the group's state, the groups listed).

Everything goes over the wire (kio), so it works alike on brokers 0.10.2 to 4.4, ZooKeeper or KRaft: the
commit is OffsetCommit with generation -1 (a group without members accepts it), the member is a JoinGroup,
SyncGroup and a heartbeat thread on a client of its own (a static one with ``group.instance.id``, KIP-345,
where the broker's JoinGroup has it).  Every wait is bounded; a refusal is ``ProbeFailed``.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ...clients.base import AdminResult, ResourceOutcome, error_name
from ...clients.kinds.wire.groups import (
    DESCRIBE_GROUPS,
    HEARTBEAT,
    JOIN_GROUP,
    LEAVE_GROUP,
    LIST_GROUPS,
    OFFSET_COMMIT,
    OFFSET_FETCH,
    SYNC_GROUP,
    brokers,
    commit_request,
    coordinator,
    items,
    request,
    timedelta_ms,
)
from ...clients.wire import WireClient
from ...errors import WireError
from ...protocol import pick_version
from ...waiting import attempts
from ..env import endpoint_of
from ..probe import ProbeContext, ProbeFailed

SETTLE = 30.0
"""Seconds a set-up step may take (the coordinator loading, a rebalance completing)."""
SESSION_MS = 10_000
"""The live member's session timeout: within every broker's default bounds (6 s to 30 min)."""
HEARTBEAT_EVERY = 1.0
_RETRIABLE = frozenset({"COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "NOT_COORDINATOR",
                        "REBALANCE_IN_PROGRESS"})


def _coordinated(client: WireClient, group: str) -> tuple[Any, dict[int, Any]]:
    """A connection to the group's coordinator and what it offers; ProbeFailed when there is none."""
    found = coordinator(client, group)
    if found.address is None:
        raise ProbeFailed(f"set-up: FindCoordinator for group {group} gave {found.error} for {SETTLE:.0f}s")
    return client.connection(found.address)


def commit_offsets(ctx: ProbeContext, group: str, topic: str, offsets: Mapping[int, int]) -> None:
    """Set-up: the super user commits ``offsets`` (partition -> offset) for ``group``, a group with no members
    yet (bounded while the coordinator loads)."""
    errors: list[str] = []
    for _ in attempts(SETTLE, interval=0.2):
        conn, offered = _coordinated(ctx.admin, group)
        version = pick_version(OFFSET_COMMIT, offered)
        response = conn.send(commit_request(version, group, [(topic, p, o) for p, o in sorted(offsets.items())]))
        errors = [error_name(int(p.error_code)) for t in response.topics for p in t.partitions
                  if int(p.error_code) != 0]
        if not errors:
            return
        if not set(errors) <= _RETRIABLE | {"UNKNOWN_TOPIC_OR_PARTITION"}:  # the new topic not known yet
            break
    raise ProbeFailed(f"set-up: committing offsets of group {group} as the super user gave {errors[0]}")


def committed_group(ctx: ProbeContext, offsets: Mapping[int, int]) -> tuple[str, str]:
    """Set-up: a new topic with a partition per offset, and a new group that committed ``offsets`` on it:
    (group, topic)."""
    topic, group = ctx.topic("kc-grp"), ctx.topic("kc-group")
    ctx.create_topic(topic, partitions=max(len(offsets), 1))
    commit_offsets(ctx, group, topic, offsets)
    return group, topic


def fetched_offsets(ctx: ProbeContext, group: str, topic: str, partitions: int) -> dict[int, int | None]:
    """The group's committed offset of each partition of ``topic`` as the super user reads it (None: none)."""
    conn, offered = _coordinated(ctx.admin, group)
    version = min(pick_version(OFFSET_FETCH, offered), 7)  # v8+ batches groups: one group needs none of it
    schema_topics = [{"name": topic, "partition_indexes": tuple(range(partitions))}]
    probe = request(OFFSET_FETCH, version, group_id=group)
    response = conn.send(request(OFFSET_FETCH, version, group_id=group, topics=items(probe, "topics", schema_topics)))
    if int(getattr(response, "error_code", 0)) != 0:
        raise ProbeFailed(f"set-up: OffsetFetch of group {group} as the super user gave "
                          f"{error_name(int(response.error_code))}")
    found: dict[int, int | None] = {}
    for answered in response.topics:
        for p in answered.partitions:
            found[int(p.partition_index)] = int(p.committed_offset) if int(p.committed_offset) >= 0 else None
    return found


@dataclass(frozen=True)
class GroupView:
    """A group as DescribeGroups shows it to the super user."""

    error: str
    state: str
    members: int
    member_ids: tuple[str, ...] = ()


def described(ctx: ProbeContext, group: str) -> GroupView:
    conn, offered = _coordinated(ctx.admin, group)
    response = conn.send(request(DESCRIBE_GROUPS, pick_version(DESCRIBE_GROUPS, offered), groups=(group,)))
    (answer,) = response.groups
    return GroupView(error_name(int(answer.error_code)), str(answer.group_state), len(answer.members),
                     tuple(str(m.member_id) for m in answer.members))


def listed_groups(ctx: ProbeContext) -> set[str]:
    """Every group id ListGroups lists (any protocol), from every broker, as the super user."""
    names: set[str] = set()
    for address in brokers(ctx.admin):
        conn, offered = ctx.admin.connection(address)
        response = conn.send(request(LIST_GROUPS, pick_version(LIST_GROUPS, offered)))
        names.update(str(g.group_id) for g in response.groups)
    return names


def subscription(topics: tuple[str, ...]) -> bytes:
    """The consumer protocol's Subscription v0: the topics, no user data."""
    out = struct.pack(">hi", 0, len(topics))
    for topic in topics:
        encoded = topic.encode()
        out += struct.pack(">h", len(encoded)) + encoded
    return out + struct.pack(">i", -1)


def assignment(topic: str, partitions: int) -> bytes:
    """The consumer protocol's Assignment v0: every partition of one topic, no user data."""
    encoded = topic.encode()
    return (struct.pack(">hih", 0, 1, len(encoded)) + encoded + struct.pack(">i", partitions)
            + b"".join(struct.pack(">i", p) for p in range(partitions)) + struct.pack(">i", -1))


@dataclass
class LiveMember:
    """A member of a group in the consumer protocol, heartbeating on its own client until stopped."""

    group: str
    member_id: str
    generation: int
    instance_id: str | None
    client: WireClient
    address: tuple[str, int]
    heartbeat_errors: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._beat, daemon=True, name=f"kcompat-member-{self.group}")
        self._thread.start()

    def _beat(self) -> None:
        conn, offered = self.client.connection(self.address)
        version = pick_version(HEARTBEAT, offered)
        while not self._stop.wait(HEARTBEAT_EVERY):
            try:
                answer = conn.send(request(HEARTBEAT, version, group_id=self.group, generation_id=self.generation,
                                           member_id=self.member_id, group_instance_id=self.instance_id))
            except WireError as exc:
                self.heartbeat_errors.append(str(exc))
                return
            if int(answer.error_code) != 0:
                self.heartbeat_errors.append(error_name(int(answer.error_code)))

    def stop(self) -> None:
        """Stop heartbeating (bounded) and leave the group, so the group is empty again."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=HEARTBEAT_EVERY + self.client.timeout)
        try:
            conn, offered = self.client.connection(self.address)
            version = pick_version(LEAVE_GROUP, offered)
            leaving = request(LEAVE_GROUP, version, group_id=self.group, member_id=self.member_id)
            if version >= 3:
                leaving = request(LEAVE_GROUP, version, group_id=self.group, members=items(leaving, "members", [
                    {"member_id": self.member_id, "group_instance_id": self.instance_id}]))
            conn.send(leaving)
        except WireError:
            pass  # a member that can't leave times out with its session; the probe has observed already
        finally:
            self.client.close()


def static_membership(ctx: ProbeContext) -> bool:
    """Whether the broker takes a static member (JoinGroup v5+ carries group.instance.id, brokers 2.3+)."""
    offered = {r.api_key: r for r in ctx.cluster.api_versions}
    return JOIN_GROUP in offered and offered[JOIN_GROUP].max_version >= 5


def join(ctx: ProbeContext, group: str, topic: str, partitions: int, instance_id: str | None = None) -> LiveMember:
    """Set-up: a new member of ``group`` subscribed to ``topic`` and assigned all of it (it leads the group),
    heartbeating until stopped; static with ``instance_id`` (JoinGroup v5+, brokers 2.3+)."""
    client = WireClient(endpoint_of(ctx.cluster), timeout=SETTLE + 10)
    try:
        found = coordinator(client, group)
        if found.address is None:
            raise ProbeFailed(f"set-up: FindCoordinator for group {group} gave {found.error}")
        conn, offered = client.connection(found.address)
        version = pick_version(JOIN_GROUP, offered)
        if instance_id is not None and version < 5:
            raise ProbeFailed(f"set-up: a static member needs JoinGroup v5+; this broker has v{version}")
        member_id, joined = "", None
        for _ in attempts(SETTLE, interval=0.2):
            probe = request(JOIN_GROUP, version)
            joined = conn.send(request(
                JOIN_GROUP, version, group_id=group, session_timeout=timedelta_ms(SESSION_MS),
                rebalance_timeout=timedelta_ms(SESSION_MS), member_id=member_id, group_instance_id=instance_id,
                protocol_type="consumer", protocols=items(probe, "protocols", [
                    {"name": "range", "metadata": subscription((topic,))}])))
            error = error_name(int(joined.error_code))
            if error == "MEMBER_ID_REQUIRED":
                member_id = str(joined.member_id)
                continue
            if error == "NONE":
                break
            if error not in _RETRIABLE:
                raise ProbeFailed(f"set-up: JoinGroup of group {group} gave {error}")
        if joined is None or int(joined.error_code) != 0:
            raise ProbeFailed(f"set-up: JoinGroup of group {group} did not complete within {SETTLE:.0f}s")
        member_id, generation = str(joined.member_id), int(joined.generation_id)
        sync_version = pick_version(SYNC_GROUP, offered)
        probe = request(SYNC_GROUP, sync_version)
        synced = conn.send(request(
            SYNC_GROUP, sync_version, group_id=group, generation_id=generation, member_id=member_id,
            group_instance_id=instance_id, protocol_type="consumer", protocol_name="range",
            assignments=items(probe, "assignments", [{"member_id": member_id,
                                                      "assignment": assignment(topic, partitions)}])))
        if int(synced.error_code) != 0:
            raise ProbeFailed(f"set-up: SyncGroup of group {group} gave {error_name(int(synced.error_code))}")
    except BaseException:
        client.close()
        raise
    member = LiveMember(group, member_id, generation, instance_id, client, found.address)
    member.start()
    return member


MEMBERS = ("none", "dynamic", "static")
"""A claim's ``member``: no member (the group only has committed offsets), or a live one, static with a
``group.instance.id`` (KIP-345)."""


@contextmanager
def member_as_asked(ctx: ProbeContext, group: str, topic: str, partitions: int) -> Iterator[LiveMember | None]:
    """The live member the claim's ``member`` asks for, for the duration of the block (or None)."""
    kind = ctx.args.get("member", "none")
    if kind not in MEMBERS:
        raise ProbeFailed(f"member is one of {', '.join(MEMBERS)}, not {kind!r}")
    if kind == "none":
        yield None
        return
    instance = f"{group}-instance" if kind == "static" else None
    with live_member(ctx, group, topic, partitions, instance) as member:
        yield member


def partition_results(result: AdminResult, topic: str) -> dict[int, ResourceOutcome]:
    """A call's results named ``topic:partition``, by partition."""
    found = {}
    for outcome in result.resources:
        name, _, partition = outcome.resource.rpartition(":")
        if name == topic and partition.isdigit():
            found[int(partition)] = outcome
    return found


@contextmanager
def live_member(ctx: ProbeContext, group: str, topic: str, partitions: int,
                instance_id: str | None = None) -> Iterator[LiveMember]:
    """A member of ``group`` for the duration of the block (``join``), stopped when it ends."""
    member = join(ctx, group, topic, partitions, instance_id)
    try:
        yield member
    finally:
        member.stop()
