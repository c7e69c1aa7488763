"""Topics for the topic, config and record probes: one made as the super user and awaited, and what the
super user reads back afterwards (a topic's presence and id, its configs, a partition's offsets)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...clients import ConfigTarget
from ...operations import perform
from ...operations.describe_configs import DESCRIBE_CONFIGS, DescribeConfigsArgs
from ...operations.list_offsets import LIST_OFFSETS, ListOffsetsArgs, OffsetQuery, Spec
from ...waiting import attempts
from ..probe import ProbeContext, ProbeFailed
from ..probes._shared import SETTLE, metadata


def topic_entry(ctx: ProbeContext, name: str) -> Any | None:
    """The topic's Metadata entry as the super user sees it (newest version kio and the broker share, so the
    topic id is there from v10), None when there is no such topic."""
    response, _ = metadata(ctx)
    return next((t for t in response.topics if str(t.name) == name and int(t.error_code) == 0), None)


def new_topic(ctx: ProbeContext, prefix: str = "kc") -> str:
    """Set-up: a topic of one partition made by the super user, awaited (bounded) until its partition has a
    leader, granted to the claim's user where it names ``topic_acl``."""
    name = ctx.topic(prefix)
    ctx.create_topic(name)
    for _ in attempts(SETTLE, interval=0.1):
        entry = topic_entry(ctx, name)
        if entry is not None and entry.partitions and all(int(p.leader_id) >= 0 for p in entry.partitions):
            ctx.grant_topic(name)
            return name
    raise ProbeFailed(f"set-up: {name} had no partition leader in Metadata within {SETTLE:.0f}s")


def gone(ctx: ProbeContext, name: str) -> bool:
    """Whether the topic leaves Metadata (bounded: brokers learn of a deletion after the controller answers)."""
    for _ in attempts(SETTLE, interval=0.2):
        if topic_entry(ctx, name) is None:
            return True
    return False


def configs_applied(ctx: ProbeContext, name: str, wanted: Mapping[str, str | None]) -> bool:
    """Whether DescribeConfigs as the super user shows each config at its wanted value (None: back to a
    default), bounded: a ZooKeeper broker applies a topic config after it answers."""
    for _ in attempts(SETTLE, interval=0.2):
        described = perform(ctx.admin, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("topic", name)]))
        if described.exception or not described.resources or described.resources[0].error_code != 0:
            raise ProbeFailed(f"set-up: DescribeConfigs of {name} as the super user gave "
                              f"{described.exception or described.resources[0].error_name}")
        entries = {e["name"]: e for e in described.resources[0].fields.get("configs", [])}
        if all(_holds(entries.get(k), v) for k, v in wanted.items()):
            return True
    return False


def _holds(entry: dict[str, Any] | None, value: str | None) -> bool:
    if entry is None:
        return False
    if value is None:  # deleted: the entry is no longer a topic override
        return bool(entry.get("source", "DEFAULT_CONFIG") != "DYNAMIC_TOPIC_CONFIG")
    return bool(entry["value"] == value)


def offset_as_admin(ctx: ProbeContext, name: str, spec: Spec) -> int | None:
    """A partition-0 offset as the super user's wire client lists it; None where the broker can't say."""
    result = perform(ctx.admin, LIST_OFFSETS, ListOffsetsArgs([OffsetQuery(name, 0, spec)]))
    if result.exception or not result.resources or result.resources[0].error_code != 0:
        return None
    offset = result.resources[0].fields.get("offset")
    return offset if isinstance(offset, int) else None


def configs_now(ctx: ProbeContext, name: str, configs: Mapping[str, str]) -> bool:
    """One look, for a call that should have changed nothing: whether every config is at the value given."""
    described = perform(ctx.admin, DESCRIBE_CONFIGS, DescribeConfigsArgs([ConfigTarget("topic", name)]))
    entries = {e["name"]: e["value"] for r in described.resources for e in r.fields.get("configs", [])}
    return all(entries.get(k) == v for k, v in configs.items())
