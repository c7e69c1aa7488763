"""Share groups as set-up (KIP-932), by the super user through the codec (Kafka's own message definitions): a
topic with records; a new share group given start offsets (AlterShareGroupOffsets: the broker creates the group,
empty; where it answers for none of the partitions, as 4.1 does, a member joins and leaves to make it) and read
back (DescribeShareGroupOffsets), its members reading from the earliest record where no start offset was given;
and a live member of it (``share_member``).

A broker without those APIs (before 4.0) can't have a share group: ``made_share_group`` says so, and a probe
whose call that broker does not refuse raises ``ProbeFailed`` (nothing it observes could be of a share group).
A broker that lists them with share groups off (4.1's ``share.version`` 0) refuses them: ``Disowned``.  Every
wait is bounded; a refusal is ``ProbeFailed``.
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
from ...codec.catalog import catalog_codec
from ...protocol import api_key, build_request
from ...waiting import attempts
from ..env import endpoint_of
from ..probe import Disowned, ProbeContext, ProbeFailed
from ..verdict import call_refused
from .members import Heartbeating
from .records import produce

SETTLE = 30.0
"""Seconds a set-up step may take (the share coordinator's state topic being created on first use)."""
RECORDS = 5
"""Records the super user writes to partition 0 of the share group's topic: start offsets 0 to 5 are in it."""
_RETRIABLE = frozenset({"COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS", "NOT_COORDINATOR",
                        "UNKNOWN_TOPIC_OR_PARTITION"})
ALTER, DESCRIBE_OFFSETS = "AlterShareGroupOffsets", "DescribeShareGroupOffsets"
HEARTBEAT, FETCH, ACKNOWLEDGE = "ShareGroupHeartbeat", "ShareFetch", "ShareAcknowledge"
GROUP_RESOURCE = 32
"""ConfigResource.Type GROUP's id (IncrementalAlterConfigsRequest.json, KIP-848's group configs)."""
ACCEPT, RELEASE = 1, 2
"""ShareAcknowledge's acknowledge types (ShareAcknowledgeRequest.json: 1:Accept, 2:Release)."""


def share_topic(ctx: ProbeContext) -> str:
    """Set-up: a new one-partition topic holding ``RECORDS`` records, as the super user."""
    topic = ctx.topic("kc-share")
    ctx.create_topic(topic)
    produce(ctx.admin, topic, [0] * RECORDS)
    return topic


def offered(ctx: ProbeContext, api: str) -> int | None:
    """The newest version of ``api`` that both the broker offers and the codec defines; None: no common one."""
    codec = catalog_codec()
    mine = {r.api_key: r for r in ctx.cluster.api_versions}.get(codec.apis().get(api, -1))
    if mine is None:
        return None
    return max((v for v in codec.versions(api) if mine.min_version <= v <= mine.max_version), default=None)


def has_share_groups(ctx: ProbeContext) -> bool:
    """Whether the broker offers what makes and reads a share group (AlterShareGroupOffsets and
    DescribeShareGroupOffsets)."""
    return all(offered(ctx, api) is not None for api in (ALTER, DESCRIBE_OFFSETS))


def made_share_group(ctx: ProbeContext, topic: str, offsets: Mapping[int, int]) -> tuple[str, bool]:
    """Set-up: a new share group whose start offsets on ``topic`` are ``offsets`` (partition -> offset) where
    the broker's AlterShareGroupOffsets gives them, as the super user: (group, whether it was made: not where the
    broker has no share groups)."""
    group = ctx.topic("kc-share-group")
    version = offered(ctx, ALTER)
    if version is None or not has_share_groups(ctx):
        return group, False
    body = {"group_id": group, "topics": [{"topic_name": topic, "partitions": [
        {"partition_index": p, "start_offset": o} for p, o in sorted(offsets.items())]}]}
    errors: list[str] = []
    for _ in attempts(SETTLE, interval=0.2):
        answer = at_coordinator(ctx.admin, group, ALTER, version, body)
        errors = [error_name(e) for e in (answer.error_code, *(p.error_code for t in answer.responses
                                                               for p in t.partitions)) if e != 0]
        if not errors:
            delivered_from_earliest(ctx, group)
            if not any(t.topic_name == topic and t.partitions for t in answer.responses):
                made_by_member(ctx, group, topic)
            return group, True
        if not set(errors) <= _RETRIABLE:
            break
    failure = Disowned if errors[0] == "UNSUPPORTED_VERSION" else ProbeFailed  # offered, refused anyway
    raise failure(f"set-up: {ALTER} v{version} of new share group {group} as the super user gave {errors[0]}")


def delivered_from_earliest(ctx: ProbeContext, group: str) -> None:
    """Set-up: the group's ``share.auto.offset.reset`` is ``earliest`` (IncrementalAlterConfigs of a GROUP
    resource, KIP-932), so a member reads the records written before it joined where no start offset was
    altered (4.1's AlterShareGroupOffsets alters none)."""
    answer = call(ctx.admin, None, "IncrementalAlterConfigs", 1, {"validate_only": False, "resources": [
        {"resource_type": GROUP_RESOURCE, "resource_name": group, "configs": [
            {"name": "share.auto.offset.reset", "config_operation": 0, "value": "earliest"}]}]})
    errors = [error_name(r.error_code) for r in answer.responses if r.error_code != 0]
    if errors or not answer.responses:
        raise ProbeFailed(f"set-up: IncrementalAlterConfigs of share.auto.offset.reset=earliest of share group "
                          f"{group} as the super user gave {errors[0] if errors else 'no result'}")


def made_by_member(ctx: ProbeContext, group: str, topic: str) -> None:
    """Set-up: the share group made as a share consumer makes it, where AlterShareGroupOffsets answered for
    none of its partitions (4.1 makes no group so): a member joins, subscribed to ``topic``, fetches partition
    0's records (which starts the group's share-partition at the earliest one, so the group has a start offset
    on ``topic``), releases them by closing its share session and leaves (MemberEpoch -1): the group is empty."""
    member = joined(ctx, group, topic)
    try:
        topic_id, leader = _topic_leader(member.client, topic)
        acquired_records(member, topic_id, leader)
        call(member.client, leader, ACKNOWLEDGE, 1, {"group_id": group, "member_id": member.member_id,
                                                     "share_session_epoch": -1, "topics": []})
    finally:
        member.leave()


def start_offsets(ctx: ProbeContext, group: str, topic: str, partitions: int) -> list[int | None] | None:
    """The group's start offset of each partition of ``topic`` (None: none) as the super user's
    DescribeShareGroupOffsets gives it; None where the broker has no share groups."""
    version = offered(ctx, DESCRIBE_OFFSETS)
    if version is None or not has_share_groups(ctx):
        return None
    error, answer = "NONE", None
    topics: tuple[Any, ...] = ()
    for _ in attempts(SETTLE, interval=0.2):
        (answer,) = at_coordinator(ctx.admin, group, DESCRIBE_OFFSETS, version,
                                   {"groups": [{"group_id": group, "topics": None}]}).groups
        error, topics = error_name(answer.error_code), tuple(answer.topics)
        if error not in _RETRIABLE:  # NONE, GROUP_ID_NOT_FOUND (no offsets: none left), or a refusal
            break
    if error not in ("NONE", "GROUP_ID_NOT_FOUND"):
        raise ProbeFailed(f"set-up: {DESCRIBE_OFFSETS} of share group {group} as the super user gave {error}")
    found: dict[int, int] = {p.partition_index: p.start_offset for t in topics if t.topic_name == topic
             for p in t.partitions if p.error_code == 0 and p.start_offset >= 0}
    return [found.get(p) for p in range(partitions)]


def at_coordinator(client: WireClient, group: str, api: str, version: int, body: Mapping[str, Any]) -> Any:
    """One request to the group's coordinator (FindCoordinator's group key type finds share and streams groups'
    too), and its answer."""
    found = coordinator(client, group)
    if found.address is None:
        raise ProbeFailed(f"set-up: FindCoordinator for group {group} gave {found.error}")
    return call(client, found.address, api, version, body)


def call(client: WireClient, address: tuple[str, int] | None, api: str, version: int,
         body: Mapping[str, Any]) -> Any:
    """One request of an API by Kafka's name, its body by the harness's field names, sent through the codec
    (``build_request``) on the client's connection to ``address`` (None: the first broker)."""
    key = api_key(api)
    if key is None:
        raise ProbeFailed(f"set-up: no catalog release defines {api}")
    conn, _ = client.connection(address)
    return conn.send(build_request(key, version, **body))


def has_share_members(ctx: ProbeContext) -> bool:
    """Whether the broker offers what a share consumer speaks (ShareGroupHeartbeat, ShareFetch,
    ShareAcknowledge) besides what makes a share group."""
    return has_share_groups(ctx) and all(offered(ctx, api) is not None for api in (HEARTBEAT, FETCH, ACKNOWLEDGE))


@dataclass
class ShareMember(Heartbeating):
    """A member of a share group (ShareGroupHeartbeat), heartbeating on its own client until it leaves."""

    group: str
    member_id: str
    epoch: int
    partitions: list[int]
    client: WireClient
    address: tuple[str, int]
    interval: float
    heartbeat_errors: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def beat(self, body: Mapping[str, Any]) -> Any:
        return call(self.client, self.address, HEARTBEAT, 1, {"group_id": self.group, "member_id": self.member_id,
                                                              **body})



def joined(ctx: ProbeContext, group: str, topic: str) -> ShareMember:
    """Set-up: a new member of share group ``group`` subscribed to ``topic``, heartbeating (MemberEpoch 0 to
    join) until the coordinator assigned it partitions of ``topic`` (bounded); not yet heartbeating alone."""
    if not has_share_members(ctx):
        raise ProbeFailed(f"set-up: broker {ctx.cluster.spec.version} offers no {HEARTBEAT} v1, {FETCH} and "
                          f"{ACKNOWLEDGE}, so share group {group} can have no member")
    client = WireClient(endpoint_of(ctx.cluster), timeout=SETTLE + 10)
    try:
        found = coordinator(client, group)
        if found.address is None:
            raise ProbeFailed(f"set-up: FindCoordinator for share group {group} gave {found.error}")
        member = ShareMember(group, uuid.uuid4().hex[:22], 0, [], client, found.address, 1.0)
        error = "no answer"
        for _ in attempts(SETTLE, interval=0.2):
            answer = member.beat({"member_epoch": member.epoch, "subscribed_topic_names": [topic]})
            if (error := error_name(answer.error_code)) not in ("NONE", *_RETRIABLE):
                break
            if error == "NONE":
                member.epoch, member.interval = answer.member_epoch, answer.heartbeat_interval / 1000
                assigned = answer.assignment.topic_partitions if answer.assignment is not None else ()
                member.partitions = sorted(p for t in assigned for p in t.partitions)
                if member.partitions:
                    return member
        raise ProbeFailed(f"set-up: {HEARTBEAT} of a new member of share group {group} gave no assignment "
                          f"within {SETTLE:.0f}s (last: {error})")
    except BaseException:
        client.close()
        raise


def fetch_and_acknowledge(ctx: ProbeContext, member: ShareMember, topic: str, accepted: int) -> None:
    """Set-up: the member ShareFetches the records of partition 0 at its leader, accepts the first ``accepted``
    and then releases the rest.  The share-partition leader moves its start offset once a state write has
    completed and persists it with the next write, so the release is what makes the moved start offset what
    DescribeShareGroupOffsets reads."""
    topic_id, leader = _topic_leader(member.client, topic)
    base = {"group_id": member.group, "member_id": member.member_id}
    acquired = acquired_records(member, topic_id, leader)
    if sorted(acquired)[:RECORDS] != list(range(RECORDS)) or not 0 < accepted < RECORDS:
        raise ProbeFailed(f"set-up: member of share group {member.group} acquired offsets {acquired} of {topic}, "
                          f"not 0 to {RECORDS - 1} to accept {accepted} of")
    for epoch, (kind, first, last) in enumerate(((ACCEPT, 0, accepted - 1), (RELEASE, accepted, RECORDS - 1)), 1):
        batch = {"first_offset": first, "last_offset": last, "acknowledge_types": [kind]}
        answer = call(member.client, leader, ACKNOWLEDGE, 1, {**base, "share_session_epoch": epoch, "topics": [
            {"topic_id": topic_id, "partitions": [{"partition_index": 0, "acknowledgement_batches": [batch]}]}]})
        errors = {error_name(e) for e in (answer.error_code, *(p.error_code for t in answer.responses
                                                               for p in t.partitions))} - {"NONE"}
        if errors:
            raise ProbeFailed(f"set-up: {ACKNOWLEDGE} of offsets {first}-{last} of {topic} in share group "
                              f"{member.group} gave {sorted(errors)[0]}")
    call(member.client, leader, ACKNOWLEDGE, 1, {**base, "share_session_epoch": -1, "topics": []})


def acquired_records(member: ShareMember, topic_id: uuid.UUID, leader: tuple[str, int]) -> list[int]:
    """The offsets of partition 0 the member's ShareFetch acquired, fetching again (bounded) until all
    ``RECORDS`` are; the share session that holds them is left open."""
    base = {"group_id": member.group, "member_id": member.member_id}
    acquired: list[int] = []
    for _ in attempts(SETTLE, interval=0.2):
        answer = call(member.client, leader, FETCH, 1, {
            **base, "share_session_epoch": 0, "max_wait": 500, "min_bytes": 1, "max_records": RECORDS,
            "batch_size": RECORDS, "topics": [{"topic_id": topic_id, "partitions": [{"partition_index": 0}]}]})
        acquired = [o for t in answer.responses for p in t.partitions for r in p.acquired_records
                    for o in range(r.first_offset, r.last_offset + 1)]
        if len(acquired) >= RECORDS:
            break
        # a session holds what it acquired: closing it releases them before the next one opens
        call(member.client, leader, ACKNOWLEDGE, 1, {**base, "share_session_epoch": -1, "topics": []})
    return acquired


def _topic_leader(client: WireClient, topic: str) -> tuple[uuid.UUID, tuple[str, int]]:
    """The topic's id and partition 0's leader, as Metadata (through the codec, a version with topic ids)
    shows them."""
    answer = call(client, None, "Metadata", 12, {"topics": [{"name": topic}], "allow_auto_topic_creation": False})
    brokers = {b.node_id: (b.host, b.port) for b in answer.brokers}
    for item in answer.topics:
        for p in item.partitions if item.name == topic and item.error_code == 0 else ():
            if p.partition_index == 0 and p.leader_id in brokers:
                return item.topic_id, brokers[p.leader_id]
    raise ProbeFailed(f"set-up: Metadata v12 shows no leader of {topic}-0")


@contextmanager
def share_member(ctx: ProbeContext, group: str, topic: str, accepted: int = 0) -> Iterator[ShareMember]:
    """A live member of share group ``group`` for the duration of the block (``joined``; with ``accepted``, it
    has accepted that many records first, ``fetch_and_acknowledge``), leaving when it ends."""
    member = joined(ctx, group, topic)
    try:
        if accepted:
            fetch_and_acknowledge(ctx, member, topic, accepted)
        member.start()
        yield member
        member.held()
    finally:
        member.leave()


def judged_without_group(ctx: ProbeContext, made: bool, observed: Mapping[str, Any], what: str) -> None:
    """Where no share group could be made, only the call's refusal can be judged: a call the client made anyway
    (deleteShareGroups sends DeleteGroups, which every broker has) observed no share group, so ProbeFailed."""
    if not made and not call_refused(observed, ctx.client.kind):
        raise ProbeFailed(f"set-up: broker {ctx.cluster.spec.version} offers no AlterShareGroupOffsets v0 and "
                          f"DescribeShareGroupOffsets v0, so no share group could be made to {what}")
