"""Remove static members from a consumer group (KIP-345: LeaveGroup v3+ naming group instance ids)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import Operation


@dataclass(frozen=True)
class RemoveMembersFromConsumerGroupArgs:
    group: str
    instance_ids: Sequence[str]


REMOVE_MEMBERS_FROM_CONSUMER_GROUP = Operation(
    "remove_members_from_consumer_group", RemoveMembersFromConsumerGroupArgs, "LeaveGroup",
    "one result per member (its group instance id): its error; an error of the group as a whole is a result "
    "named by the group (or the exception)",
    lambda topic: (RemoveMembersFromConsumerGroupArgs(f"{topic}-group", ["kcompat-instance"]),),
    java_class="RemoveMembersFromConsumerGroup")
